//===- test/analysis/CheckTest.cpp - check on hand-built kernels ----------===//
//
// The optimal GEMM (GemmKernel.h) is accepted on the H200; each variant
// changes one decision and must be refused with the finding of its kind:
// the diagnostic id, its arguments, the range, the fix-it and the notes
// naming the contract item.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "Render.h"

#include "analysis/Analysis.h"

#include <random>

namespace tf::test {
namespace {

using namespace hir;
using analysis::Finding;
using plugin::DiagId;

/// infer and check on the same target, as the plugin's pipeline does.
std::vector<Finding> run(GemmKernel &G, const targets::MergedTarget *T) {
  std::vector<Finding> Infer = analysis::infer(G.K, T);
  EXPECT_TRUE(Infer.empty()) << render(Infer);
  return analysis::check(G.K, T);
}

bool isError(const Finding &F) {
  return std::string(info(F.Id).Class) == "Error";
}

TEST(Check, OptimalGemmIsAcceptedOnH200) {
  // Every TMA copy is split into boxes the contract accepts (Site.h,
  // splitIntoBoxes), so nothing at all is reported.
  GemmKernel G = buildGemm();
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  EXPECT_TRUE(Fs.empty()) << render(Fs);
  // Without a target only the capabilities are not checked.
  GemmKernel H = buildGemm();
  Fs = run(H, nullptr);
  EXPECT_TRUE(Fs.empty()) << render(Fs);
}

TEST(Check, MmaOutsideTheThreadMeshIsRefused) {
  GemmOptions O;
  O.ComputeScopeOnMma = false;
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  auto Mesh = withId(Fs, DiagId::err_tf_contract_mesh);
  ASSERT_EQ(Mesh.size(), 1u) << render(Fs);
  const Finding &F = *Mesh[0];
  EXPECT_EQ(F.Range.Line, 30u);
  EXPECT_EQ(F.Range.Column, 30u); // the call
  ASSERT_EQ(F.Args.size(), 4u);
  EXPECT_EQ(F.Args[0], "nv.sm90.Wgmma");
  EXPECT_EQ(F.Args[1], "Mesh(cta, (1):(1)) (one unit of the tile loop's mesh)");
  EXPECT_EQ(F.Args[2], "Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0)");
  EXPECT_EQ(F.Args[3], "level cta is not thread");
  ASSERT_GE(F.Notes.size(), 1u);
  EXPECT_EQ(F.Notes[0].Id, DiagId::note_tf_contract_item);
  EXPECT_EQ(message(F.Notes[0]),
            "contract nv.sm90.Wgmma, mesh: Mesh(cta, (1):(1)) does not match "
            "Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not "
            "thread");
}

TEST(Check, SlotLayoutWgmmaCannotReadIsRefused) {
  // A plain row-major 128 x 64 slot: TMA can fill it (unswizzled), WGMMA's
  // K-major operand needs 8 x 16-byte core matrices.
  GemmOptions O;
  O.LhsSlot = "(128,64):(64,1)";
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  auto Layout = withId(Fs, DiagId::err_tf_contract_layout);
  ASSERT_EQ(Layout.size(), 1u) << render(Fs);
  const Finding &F = *Layout[0];
  EXPECT_EQ(F.Range.Line, 30u);
  EXPECT_EQ(F.Range.Column, 65u); // lhs at the call
  ASSERT_EQ(F.Args.size(), 4u);
  EXPECT_EQ(F.Args[0], "nv.sm90.Wgmma");
  EXPECT_EQ(F.Args[1], "A");
  EXPECT_EQ(F.Args[2], "'lhs'");
  EXPECT_EQ(F.Args[3].rfind("fragment ((8,8),(2,8)):((512,64),(8,1)) does not "
                            "match ((8,8),(2,8)):((sbo,8),(lbo,1)) + a0 "
                            "(a_major=K, k=16): ", 0), 0u) << F.Args[3];
  ASSERT_GE(F.Notes.size(), 1u);
  EXPECT_EQ(message(F.Notes[0]).rfind("contract nv.sm90.Wgmma, operand A: ", 0), 0u)
      << message(F.Notes[0]);
  // Nothing else is refused.
  for (const Finding &X : Fs)
    if (&X != &F)
      EXPECT_FALSE(isError(X)) << render(X);
}

TEST(Check, WrittenRepeatMustBeTheDerivedOne) {
  GemmOptions O;
  O.Repeat = {2, 1, 2};
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  ASSERT_EQ(Fs.size(), 1u) << render(Fs);
  const Finding &F = Fs[0];
  EXPECT_EQ(F.Id, DiagId::err_tf_repeat_mismatch);
  EXPECT_EQ(F.Range.Line, 30u);
  EXPECT_EQ(F.Range.Column, 40u); // the written tf::Repeat<...>
  EXPECT_EQ(F.Args, (std::vector<std::string>{"2, 1, 2", "2, 1, 4",
                                              "nv.sm90.Wgmma", "(128, 256, 64)",
                                              "(64, 256, 16)"}));
  ASSERT_EQ(F.FixIts.size(), 1u);
  EXPECT_EQ(F.FixIts[0].Replacement, "tf::Repeat<2, 1, 4>");
  EXPECT_EQ(F.FixIts[0].Range.Begin, G.K.Stmts[G.Mma].Sched->RepeatRange.Begin);
  EXPECT_EQ(F.FixIts[0].Range.End, G.K.Stmts[G.Mma].Sched->RepeatRange.End);
  ASSERT_EQ(F.Notes.size(), 2u);
  EXPECT_EQ(message(F.Notes[0]),
            "contract nv.sm90.Wgmma, repeat: written (2,1,2), derived (2,1,4)");
  EXPECT_EQ(F.Notes[1].Id, DiagId::note_tf_derived);
  EXPECT_EQ(message(F.Notes[1]),
            "derived Repeat<2, 1, 4> = tile (128, 256, 64) / atom (64, 256, "
            "16): M: 2 side by side on group; K: 4 one after another");
}

TEST(Check, RepeatFixItCarriesTheDerivedValueForEveryAtom) {
  std::mt19937 Rng(7);
  const std::int64_t Ns[] = {8, 16, 32, 64, 128};
  for (int Trial = 0; Trial < 6; ++Trial) {
    GemmOptions O;
    O.N = Ns[Rng() % std::size(Ns)];
    GemmKernel G = buildGemm(O); // written Repeat<2, 1, 4>
    std::vector<Finding> Fs = run(G, nullptr);
    auto R = withId(Fs, DiagId::err_tf_repeat_mismatch);
    ASSERT_EQ(R.size(), 1u) << render(Fs);
    ASSERT_EQ(R[0]->FixIts.size(), 1u);
    EXPECT_EQ(R[0]->FixIts[0].Replacement,
              "tf::Repeat<2, " + std::to_string(256 / O.N) + ", 4>");
  }
}

TEST(Check, WgmmaNOutOfRangeGetsTheNearestValue) {
  GemmOptions O;
  O.N = 260;
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  auto Params = withId(Fs, DiagId::err_tf_contract_parameter);
  ASSERT_EQ(Params.size(), 2u) << render(Fs); // n <= 256 and n % 8 == 0
  EXPECT_EQ(Params[0]->Args,
            (std::vector<std::string>{"n", "nv.sm90.Wgmma", "260 violates n <= 256"}));
  EXPECT_EQ(Params[1]->Args[2], "260 violates n % 8 == 0");
  for (const Finding *F : Params) {
    EXPECT_EQ(F->Range.Line, 15u); // Wgmma<260, ...>
    EXPECT_EQ(F->Range.Column, 40u);
  }
  // One fix-it, on the first.
  ASSERT_EQ(Params[0]->FixIts.size(), 1u);
  EXPECT_EQ(Params[0]->FixIts[0].Replacement, "256");
  EXPECT_EQ(Params[0]->FixIts[0].Range.Begin, at(15, 40, 42).Begin);
  EXPECT_TRUE(Params[1]->FixIts.empty());
  EXPECT_EQ(message(Params[0]->Notes[0]),
            "contract nv.sm90.Wgmma, parameter n: 260 violates n <= 256");
  // No cascade: with n invalid the engine derives no tile or repeat.
  EXPECT_EQ(Fs.size(), 2u) << render(Fs);
  EXPECT_TRUE(withId(Fs, DiagId::err_tf_repeat_mismatch).empty());
}

TEST(Check, ParameterFixItIsTheNearestValidValue) {
  // Random n against a brute-force search of 8..256 step 8 among the values
  // that divide the tile's N (256): a fix-it the tile can use.
  std::mt19937 Rng(42);
  for (int Trial = 0; Trial < 40; ++Trial) {
    std::int64_t N = static_cast<std::int64_t>(Rng() % 600) - 100;
    if (N >= 8 && N <= 256 && N % 8 == 0)
      continue;
    GemmOptions O;
    O.N = N;
    O.Repeat.clear();
    GemmKernel G = buildGemm(O);
    analysis::infer(G.K);
    std::vector<Finding> Fs = analysis::check(G.K, nullptr);
    const std::int64_t TileN = 256;
    std::int64_t Best = 8;
    for (std::int64_t V = 8; V <= 256; V += 8)
      if (TileN % V == 0 && std::llabs(V - N) <= std::llabs(Best - N))
        Best = V; // ties: the larger, fewer atoms
    auto Params = withId(Fs, DiagId::err_tf_contract_parameter);
    ASSERT_FALSE(Params.empty()) << "n = " << N << "\n" << render(Fs);
    int Fixes = 0;
    for (const Finding *F : Params)
      for (const analysis::FixIt &X : F->FixIts) {
        ++Fixes;
        EXPECT_EQ(X.Replacement, std::to_string(Best)) << "n = " << N;
      }
    EXPECT_EQ(Fixes, 1) << "n = " << N << "\n" << render(Fs);
  }
}

TEST(Check, TmaFromAWarpIsRefused) {
  GemmOptions O;
  O.LoaderThreads = 32;
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  auto Mesh = withId(Fs, DiagId::err_tf_contract_mesh);
  ASSERT_EQ(Mesh.size(), 3u) << render(Fs); // two loads and the store
  EXPECT_EQ(Mesh[0]->Range.Line, 28u);
  EXPECT_EQ(Mesh[1]->Range.Line, 29u);
  EXPECT_EQ(Mesh[2]->Range.Line, 33u);
  EXPECT_EQ(Mesh[0]->Args[0], "nv.sm90.CopyAsyncTensor");
  EXPECT_EQ(Mesh[0]->Args[1],
            "Mesh(thread, (32):(1), participant) ('loader')");
  EXPECT_EQ(Mesh[0]->Args[2], "Mesh(thread, (1):(1) + p0)");
  EXPECT_EQ(message(*Mesh[0]),
            "nv.sm90.CopyAsyncTensor cannot be issued from mesh Mesh(thread, "
            "(32):(1), participant) ('loader'), which does not match its "
            "execution mesh Mesh(thread, (1):(1) + p0): leaf 0 of (32) has "
            "extent 32 where (1) has 1");
  for (const Finding &F : Fs)
    if (F.Id != DiagId::err_tf_contract_mesh)
      EXPECT_FALSE(isError(F)) << render(F);
}

TEST(Check, AmpereLacksWgmmaAndTma) {
  GemmKernel G = buildGemm();
  std::vector<Finding> Fs = run(G, &target("nvidia.a100_sxm"));
  auto Caps = withId(Fs, DiagId::err_tf_contract_capability);
  ASSERT_EQ(Caps.size(), 4u) << render(Fs);
  EXPECT_EQ(Caps[0]->Args, (std::vector<std::string>{
                               "nv.sm90.CopyAsyncTensor", "cp.async.bulk.tensor",
                               "nvidia.a100_sxm"}));
  EXPECT_EQ(Caps[2]->Args, (std::vector<std::string>{
                               "nv.sm90.Wgmma", "wgmma.mma_async", "nvidia.a100_sxm"}));
  EXPECT_EQ(Caps[2]->Range.Line, 30u);
  EXPECT_EQ(message(*Caps[2]),
            "nv.sm90.Wgmma needs capability 'wgmma.mma_async', which target "
            "'nvidia.a100_sxm' lacks");
  EXPECT_EQ(message(Caps[2]->Notes[0]),
            "contract nv.sm90.Wgmma, capability: wgmma.mma_async is not among "
            "the target's capabilities");
  // The generic Copy needs no capability.
  for (const Finding *F : Caps)
    EXPECT_NE(F->Range.Line, 32u);
}

TEST(Check, CopyBetweenElementTypesIsRefused) {
  GemmOptions O;
  O.StagedDType = DType::f16;
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  auto Ops = withId(Fs, DiagId::err_tf_contract_operand);
  ASSERT_FALSE(Ops.empty()) << render(Fs);
  const Finding &F = *Ops[0];
  EXPECT_EQ(F.Range.Line, 32u);
  EXPECT_EQ(F.Range.Column, 65u); // staged_tile at the call
  EXPECT_EQ(message(F), "operand dst ('staged_tile') does not fit generic.Copy: "
                        "dtype f16, expected bf16 (dtype=bf16)");
}

TEST(Check, UnknownContractIsReported) {
  GemmOptions O;
  O.MmaContract = "nv.sm100.Umma";
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, nullptr);
  auto U = withId(Fs, DiagId::err_tf_atom_unknown);
  ASSERT_EQ(U.size(), 1u) << render(Fs);
  EXPECT_EQ(U[0]->Args[0], "'tf::TiledMma<Wgmma>'");
  EXPECT_EQ(U[0]->Args[1].rfind("'nv.sm100.Umma' is not among generic.Binary", 0), 0u)
      << U[0]->Args[1];
}

TEST(Check, FindingsComeInSourceOrder) {
  // Every kind at once: a warp issuing TMA (lines 28, 29, 33), n = 260 on
  // line 15, a Copy into f16 on line 32, on an A100.
  GemmOptions O;
  O.LoaderThreads = 32;
  O.N = 260;
  O.StagedDType = DType::f16;
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.a100_sxm"));
  ASSERT_GE(Fs.size(), 8u) << render(Fs);
  for (std::size_t I = 1; I < Fs.size(); ++I)
    EXPECT_LE(std::tie(Fs[I - 1].Range.Line, Fs[I - 1].Range.Column),
              std::tie(Fs[I].Range.Line, Fs[I].Range.Column))
        << render(Fs);
  // The same kernel gives the same findings.
  GemmKernel H = buildGemm(O);
  EXPECT_EQ(render(run(H, &target("nvidia.a100_sxm"))), render(Fs));
}

} // namespace
} // namespace tf::test

namespace tf::test {
namespace {

TEST(Check, StaticMatricesGiveWindowLayouts) {
  // With static extents the gmem windows carry their layout (row stride
  // 4096, offsets m * 128 * 4096 + k known only at run time) and are
  // matched against TMA's gmem pattern; rows of 8190 bf16 are no multiple
  // of 16 bytes and are refused.
  for (const char *Text : {"(4096,4096)", "(8190,8190)"}) {
    GemmKernel G = buildGemm();
    for (ValueId V : {G.A, G.B, G.Out})
      G.K.Values[V].Type = tensorType(DType::bf16, Storage::gmem, Text);
    std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
    const bool Aligned = std::string(Text) == "(4096,4096)";
    std::vector<const Finding *> Errors;
    for (const Finding &F : Fs)
      if (isError(F))
        Errors.push_back(&F);
    if (Aligned) {
      EXPECT_TRUE(Errors.empty()) << render(Fs);
      continue;
    }
    ASSERT_FALSE(Errors.empty()) << render(Fs);
    EXPECT_EQ(Errors[0]->Range.Line, 28u);
    EXPECT_NE(message(*Errors[0]).find("% 16 == 0 fails"), std::string::npos)
        << render(Fs);
  }
}


//===- TMA boxes ------------------------------------------------------------===//

/// The boxes inference derived for copy \p Op as the HIR printer shows them
/// ("boxes<1,4> of 128x64 at (1,4):(0,8192)"); empty when none.
std::string boxes(const Kernel &K, StmtId Op) {
  const Schedule &S = *K.Stmts[Op].Sched;
  if (S.BoxExtents.empty())
    return "";
  auto List = [](const std::vector<std::int64_t> &Xs, const char *Sep) {
    std::string Out;
    for (std::size_t I = 0; I < Xs.size(); ++I)
      Out += (I ? Sep : "") + std::to_string(Xs[I]);
    return Out;
  };
  return "boxes<" + List(S.DerivedRepeat, ",") + "> of " +
         List(S.BoxExtents, "x") + " at " + to_string(S.BoxOffsets);
}

/// The errors of \p Fs on line \p Line.
std::vector<const Finding *> errorsOn(const std::vector<Finding> &Fs,
                                      unsigned Line) {
  std::vector<const Finding *> Out;
  for (const Finding &F : Fs)
    if (isError(F) && F.Range.Line == Line)
      Out.push_back(&F);
  return Out;
}

TEST(Check, TmaCopiesAreSplitIntoBoxes) {
  GemmKernel G = buildGemm();
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  EXPECT_TRUE(Fs.empty()) << render(Fs);
  // A's slot ((2,8,8),(4,16)):((4096,512,64),(16,1)) is the compact
  // row-major 128 x 64 tile, 128-byte rows: one box.
  EXPECT_EQ(boxes(G.K, G.LoadA), "boxes<1,1> of 128x64 at (1,1):(0,0)");
  // The staged tile (128,(4,64)):(64,(8192,1)): (4,64) divided by 64 is
  // tile 64:1, rest 4:8192 -- four 128 x 64 panels, 16 KiB apart.
  EXPECT_EQ(boxes(G.K, G.Store), "boxes<1,4> of 128x64 at (1,4):(0,8192)");
  // B's slot ((4,2,8),(4,64)):((4096,512,64),(1024,1)) keeps the K blocks
  // of 16 rows outermost (k0 at 4096, outside the panels at 1024: what
  // WGMMA reads per k-atom is contiguous), so one 64 x 64 panel is four
  // pieces 4096 apart, not one box: the box is 16 rows of a panel, 4 x 4
  // of them.
  EXPECT_EQ(boxes(G.K, G.LoadB), "boxes<4,4> of 16x64 at (4,4):(4096,1024)");
}

TEST(Check, ContiguousPanelsAreOneBoxEach) {
  // With the panels contiguous, (64,(4,64)):(64,(4096,1)), each 64 x 64
  // panel is one box.
  GemmOptions O;
  O.RhsSlot = "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)";
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  EXPECT_TRUE(errorsOn(Fs, 29).empty()) << render(Fs);
  EXPECT_EQ(boxes(G.K, G.LoadB), "boxes<1,4> of 64x64 at (1,4):(0,4096)");
}

TEST(Check, PanelsSplitByTheirCount) {
  // Any number of panels, under any swizzle span: two unswizzled 128 x 128
  // panels (256-byte rows are valid without swizzle), eight 128 x 32 panels
  // of 64-byte rows under the 64-byte swizzle; a row-major unswizzled tile
  // whose rows fit the box limit (256) is one box.
  struct Case {
    const char *Staged;
    const char *Boxes;
  } Cases[] = {
      {"(128,(2,128)):(128,(16384,1))",
       "boxes<1,2> of 128x128 at (1,2):(0,16384)"},
      {"(128,(8,32)):(32,(4096,1)) | Swizzle(2,4,3)",
       "boxes<1,8> of 128x32 at (1,8):(0,4096)"},
      {"(128,256):(256,1)", "boxes<1,1> of 128x256 at (1,1):(0,0)"},
  };
  for (const Case &C : Cases) {
    GemmOptions O;
    O.Staged = C.Staged;
    GemmKernel G = buildGemm(O);
    std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
    EXPECT_TRUE(Fs.empty()) << C.Staged << "\n" << render(Fs);
    EXPECT_EQ(boxes(G.K, G.Store), C.Boxes) << C.Staged;
  }
}

TEST(Check, NoBoxFitsReportsTheWholeCopy) {
  // 128-byte swizzle over 512-byte rows: a 64-column box would be one row
  // (the next row is 256 elements on, not 64), and one-row boxes start 512
  // bytes apart, off the swizzle's 1024-byte period. No split is valid, so
  // the copy is refused as a whole, with its own reason.
  GemmOptions O;
  O.Staged = "(128,256):(256,1) | Swizzle(3,4,3)";
  GemmKernel G = buildGemm(O);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  auto Errors = errorsOn(Fs, 33);
  ASSERT_EQ(Errors.size(), 1u) << render(Fs);
  EXPECT_EQ(message(*Errors[0]), "operand dst (a tile of 'out') does not fit nv.sm90.CopyAsyncTensor: "
            "bytes of the innermost mode <= 128 fails (found 512) "
            "[cuTensorMapEncodeTiled]");
  EXPECT_EQ(boxes(G.K, G.Store), "");
  EXPECT_TRUE(G.K.Stmts[G.Store].Sched->DerivedRepeat.empty());
  // Column-major: no box has a contiguous innermost row.
  GemmOptions C;
  C.Staged = "(128,256):(1,128)";
  GemmKernel H = buildGemm(C);
  Fs = run(H, &target("nvidia.h200_sxm"));
  Errors = errorsOn(Fs, 33);
  ASSERT_EQ(Errors.size(), 1u) << render(Fs);
  EXPECT_EQ(Errors[0]->Id, DiagId::err_tf_contract_layout);
  EXPECT_EQ(message(*Errors[0]), "nv.sm90.CopyAsyncTensor cannot read operand src ('staged') in this "
            "layout: fragment (128,256):(1,128) is not the compact row-major "
            "layout of its shape");
  EXPECT_EQ(boxes(H.K, H.Store), "");
}

TEST(Check, WrittenRepeatOfACopyMustBeItsBoxCount) {
  GemmKernel G = buildGemm();
  Schedule &S = *G.K.Stmts[G.LoadB].Sched;
  S.Repeat = {1, 4};
  S.RepeatRange = at(29, 40, 56);
  std::vector<Finding> Fs = run(G, &target("nvidia.h200_sxm"));
  ASSERT_EQ(Fs.size(), 1u) << render(Fs);
  EXPECT_EQ(Fs[0].Id, DiagId::err_tf_repeat_mismatch);
  EXPECT_EQ(Fs[0].Args,
            (std::vector<std::string>{"1, 4", "4, 4", "nv.sm90.CopyAsyncTensor",
                                      "(64, 256)", "(16, 64)"}));
  ASSERT_EQ(Fs[0].FixIts.size(), 1u);
  EXPECT_EQ(Fs[0].FixIts[0].Replacement, "tf::Repeat<4, 4>");
  EXPECT_EQ(render(Fs[0]),
            "optimal.cpp:29:40: error: written Repeat<1, 4> disagrees with the "
            "derived Repeat<4, 4> of nv.sm90.CopyAsyncTensor: tile (64, 256) "
            "over atom (16, 64)\n"
            "  fix-it:29:40: \"tf::Repeat<4, 4>\"\n"
            "optimal.cpp:29:40: note: contract nv.sm90.CopyAsyncTensor, repeat: "
            "written (1,4), derived (4,4)\n"
            "optimal.cpp:29:40: note: derived Repeat<4, 4> = copy (64, 256) / "
            "box (16, 64): one nv.sm90.CopyAsyncTensor per box; the boxes start "
            "at shared-memory offsets (4,4):(4096,1024)\n");
  // The derived count written is accepted.
  GemmKernel H = buildGemm();
  H.K.Stmts[H.LoadB].Sched->Repeat = {4, 4};
  H.K.Stmts[H.LoadB].Sched->RepeatRange = at(29, 40, 56);
  Fs = run(H, &target("nvidia.h200_sxm"));
  EXPECT_TRUE(Fs.empty()) << render(Fs);
}

} // namespace
} // namespace tf::test
