//===- test/lower/HandoffProtocolTest.cpp - A second backend fits ---------===//
//
// The lowering passes (plugin/lower/) with a backend that is not cuda_sm90:
// examples/gemm/optimal.cpp -- TMA loads into two rings, WGMMA reading
// them, a staged epilogue stored by TMA -- is compiled in this process as
// `tf finalize` compiles it (plugin/cli/ToolRunner.h) and lowered through
// the real passes (lower/Lower.h) by a test backend of its own:
//
//   - its rules lower every op to a plain atom call and acquire what the op
//     reads (the rings and buffer backing its operands) and fills (its
//     destination, asynchronously from global memory, else from registers);
//   - its hand-off protocol is one of flags and CTA-wide barriers -- its
//     own LIR extension `flag`, with a verifier of its arrival counts --
//     with 4-byte barrier objects;
//   - its views are aligned to 256 bytes.
//
// The tests check that the lowered kernel holds only the protocol's
// statements where the hand-off is, in the order and with the slots,
// parities, arrivals and expected bytes pipeline synthesis decides, and
// the test backend's shared-memory facts. Any Hopper statement or fact the
// passes produced themselves (an mbarrier wait, an 8-byte barrier, a TMA
// alignment) fails them.
//
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "cli/ToolRunner.h"
#include "lower/Context.h"
#include "lower/Lower.h"
#include "lower/PipelineSynthesis.h"
#include "lower/Printer.h"
#include "lower/Verify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#ifndef TF_SOURCE_DIR
#error "TF_SOURCE_DIR (the source tree) must be defined"
#endif

namespace {

using namespace tf;
using namespace tf::lower;

//===- The `flag` extension -----------------------------------------------===//

const Extension &flags();

/// The statements of the flag protocol.
enum class FlagKind : unsigned {
  Init,   ///< every object of At.Bar set up for Count arrivals
  Wait,   ///< wait until At's phase Phase completed
  Arrive, ///< At.Threads (or thread At.Elected) arrive; Bytes expected
  Sync,   ///< Count threads meet at a CTA-wide barrier
};

class FlagInst final : public ExtensionInst {
public:
  explicit FlagInst(FlagKind K) : ExtensionInst(flags(), unsigned(K)) {}
  FlagKind flagKind() const { return static_cast<FlagKind>(kind()); }
  std::unique_ptr<ExtensionInst> clone() const override {
    return std::make_unique<FlagInst>(*this);
  }
  static bool classof(const ExtensionInst *I) {
    return &I->extension() == &flags();
  }

  HandoffPoint At;
  ExprId Phase = None;
  WaitFor Why = WaitFor::Full;
  std::int64_t Count = 0, Bytes = 0;
};

/// Every barrier is set up once with the arrivals the table records, and
/// the threads that arrive on it per phase add up to them.
class FlagVerifier final : public ExtensionVerifier {
public:
  FlagVerifier(const Kernel &K, VerifyFailure Fail)
      : K(K), Fail(std::move(Fail)) {}
  void stmt(InstId, const Stmt &S, const VerifyScope &) override {
    const auto &I = llvm::cast<FlagInst>(*S.extension());
    if (I.flagKind() == FlagKind::Init)
      Inits[I.At.Bar] = I.Count;
    if (I.flagKind() == FlagKind::Arrive)
      Arrivals[I.At.Bar] += I.At.Threads;
  }
  void finish() override {
    for (BarrierId B = 0; B < K.Barriers.size(); ++B)
      if (Inits.count(B) == 0 || Inits[B] != K.Barriers[B].Arrivals ||
          Arrivals[B] != K.Barriers[B].Arrivals)
        Fail(K.Range, "flag " + K.Barriers[B].Name + " is set up for " +
                          llvm::Twine(Inits[B]) + " arrivals, gets " +
                          llvm::Twine(Arrivals[B]) + ", the table says " +
                          llvm::Twine(K.Barriers[B].Arrivals));
  }

private:
  const Kernel &K;
  VerifyFailure Fail;
  std::map<BarrierId, std::int64_t> Inits, Arrivals;
};

class FlagExtension final : public Extension {
public:
  llvm::StringRef name() const override { return "flag"; }
  void print(const Kernel &K, const Stmt &S,
             llvm::raw_ostream &OS) const override {
    const auto &I = llvm::cast<FlagInst>(*S.extension());
    switch (I.flagKind()) {
    case FlagKind::Init:
      OS << "flag.init " << K.Barriers[I.At.Bar].Name
         << ", arrivals=" << I.Count;
      return;
    case FlagKind::Wait:
      OS << "flag.wait " << barrierText(K, I.At.Bar, I.At.Slot)
         << ", parity=" << exprText(K, I.Phase)
         << (I.Why == WaitFor::Free ? " free" : " full") << " by "
         << I.At.Threads;
      return;
    case FlagKind::Arrive:
      OS << "flag.arrive " << barrierText(K, I.At.Bar, I.At.Slot) << " by "
         << (I.At.Elected >= 0 ? "thread " + std::to_string(I.At.Elected)
                               : std::to_string(I.At.Threads));
      if (I.Bytes)
        OS << ", expects " << I.Bytes;
      return;
    case FlagKind::Sync:
      OS << "cta.sync " << I.Count;
      return;
    }
  }
  std::unique_ptr<ExtensionVerifier>
  verifier(const Kernel &K, VerifyFailure Fail) const override {
    return std::make_unique<FlagVerifier>(K, std::move(Fail));
  }
};

const Extension &flags() {
  static const FlagExtension E;
  return E;
}

//===- The protocol -------------------------------------------------------===//

std::unique_ptr<FlagInst> flag(FlagKind K, const HandoffPoint &At) {
  auto I = std::make_unique<FlagInst>(K);
  I->At = At;
  return I;
}

class FlagProtocol final : public HandoffProtocol {
public:
  void wait(LoweringContext &Ctx, const HandoffPoint &At, ExprId Phase,
            WaitFor Why, const hir::Stmt &S,
            std::vector<InstId> &Out) override {
    auto I = flag(FlagKind::Wait, At);
    I->Phase = Phase;
    I->Why = Why;
    Ctx.add(std::move(I), S, Out);
  }
  /// An asynchronous fill fills the whole slot: its bytes.
  std::int64_t arriveForAsyncFill(LoweringContext &Ctx, const HandoffPoint &At,
                                  llvm::ArrayRef<InstId>, const hir::Stmt &S,
                                  std::vector<InstId> &Out) override {
    auto I = flag(FlagKind::Arrive, At);
    I->Bytes = Ctx.L.Regions[Ctx.Views.at(Ctx.L.Barriers[At.Bar].Guards)].Bytes;
    const std::int64_t Bytes = I->Bytes;
    Ctx.add(std::move(I), S, Out);
    return Bytes;
  }
  void publishWrites(LoweringContext &Ctx, const Role &Writers,
                     const hir::Stmt &S, std::vector<InstId> &Out) override {
    auto I = flag(FlagKind::Sync, {});
    I->Count = Writers.threads();
    Ctx.add(std::move(I), S, Out);
  }
  void meet(LoweringContext &Ctx, const Role &R, const hir::Stmt &S,
            std::vector<InstId> &Out) override {
    auto I = flag(FlagKind::Sync, {});
    I->Count = R.threads();
    Ctx.add(std::move(I), S, Out);
  }
  std::int64_t arrive(LoweringContext &Ctx, const HandoffPoint &At,
                      const hir::Stmt &S, std::vector<InstId> &Out) override {
    Ctx.add(flag(FlagKind::Arrive, At), S, Out);
    return At.Threads * At.Ctas;
  }
  void initialize(LoweringContext &Ctx, std::vector<InstId> &Out) override {
    for (BarrierId B = 0; B < Ctx.L.Barriers.size(); ++B) {
      auto I = flag(FlagKind::Init, {B, None, None, 0, -1});
      I->Count = Ctx.L.Barriers[B].Arrivals;
      Out.push_back(Ctx.L.addInst(Stmt(std::move(I), Ctx.H.Range)));
    }
    auto Sync = flag(FlagKind::Sync, {});
    Sync->Count = Ctx.L.BlockThreads;
    Out.push_back(Ctx.L.addInst(Stmt(std::move(Sync), Ctx.H.Range)));
  }
  /// No clusters: nothing after the roles.
  void finish(LoweringContext &, std::vector<InstId> &) override {}
  BarrierObject barrierObject() const override {
    return {"flag", 4, 4, "flag"};
  }
};

//===- The backend --------------------------------------------------------===//

/// Any op: a plain atom call that reads the rings and buffers backing its
/// operands and fills its destination when that is a ring or buffer.
void lowerPlain(LoweringContext &Ctx, hir::StmtId Op, Selection &Sel) {
  const hir::Stmt &S = Ctx.H.Stmts[Op];
  for (hir::ValueId V : S.Operands)
    if (auto It = Ctx.Backing.find(V); It != Ctx.Backing.end())
      acquire(Ctx, Sel, It->second, Handoff::Read);
  if (S.Operands.size() == 2 && Ctx.Views.count(S.Operands[1]))
    acquire(Ctx, Sel, S.Operands[1],
            Ctx.H.Values[S.Operands[0]].Type.Where == Storage::gmem
                ? Handoff::AsyncFill
                : Handoff::SyncFill);
  AtomCallStmt Call;
  Call.Contract = S.Sched->ContractId;
  Call.Threads = Ctx.Roles[Sel.Role].threads();
  Ctx.add(std::move(Call), S, Sel.Body);
}

class FlagBackend final : public backend::Backend {
public:
  llvm::StringRef name() const override { return "flag_test"; }
  llvm::StringRef fileSuffix() const override { return ".flag.txt"; }
  backend::Support supports(const hir::Kernel &, hir::StmtId,
                            const Contract &) const override {
    return {true, "", 1};
  }
  backend::LoweringRule rule(const Contract &) const override {
    return lowerPlain;
  }
  std::unique_ptr<HandoffProtocol> handoffProtocol() const override {
    return std::make_unique<FlagProtocol>();
  }
  backend::ViewAlignment viewAlignment(const LayoutText &) const override {
    return {256, "flag view", ""};
  }
  /// The printed LIR.
  llvm::Error emit(llvm::ArrayRef<Kernel> Kernels, const backend::EmitOptions &,
                   llvm::raw_ostream &OS) const override {
    for (const Kernel &K : Kernels)
      print(K, OS);
    return llvm::Error::success();
  }
};

//===- Lowering the example -----------------------------------------------===//

struct Lowered {
  std::optional<Kernel> LIR;
  std::string Problems;
};

/// examples/gemm/optimal.cpp lowered by the flag backend, once.
const Lowered &optimalWithFlags() {
  static const Lowered Result = [] {
    Lowered Out;
    static const char *const Argv[] = {"tf_lower_handoff", "--", "-std=c++20",
                                       "-I" TF_SOURCE_DIR "/include"};
    cli::takeCompilerFlags(4, Argv);
    cli::ToolOptions Opts;
    Opts.Command = "finalize";
    Opts.Files = {TF_SOURCE_DIR "/examples/gemm/optimal.cpp"};
    Opts.Sink = [&](llvm::StringRef, clang::ASTContext &, hir::Module &M,
                    llvm::ArrayRef<const targets::MergedTarget *> Targets) {
      static const FlagBackend Backend;
      for (std::size_t I = 0; I < M.Kernels.size(); ++I) {
        LoweringResult R = lowerKernel(M.Kernels[I], Targets[I], Backend);
        for (const analysis::Finding &F : R.Refusals)
          Out.Problems += "refused: " + llvm::join(F.Args, "; ") + "\n";
        for (const auto &[At, Message] : R.InternalErrors)
          Out.Problems += "internal: " + Message + "\n";
        if (R.Lowered && !Out.LIR)
          Out.LIR = std::move(R.Lowered);
      }
    };
    if (cli::runOnFiles(Opts) != 0)
      Out.Problems += "the example did not compile\n";
    return Out;
  }();
  return Result;
}

/// The printed lines of \p K, stripped of their indentation.
std::vector<std::string> printedLines(const Kernel &K) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  print(K, OS);
  std::vector<std::string> Lines;
  for (llvm::StringRef Line : llvm::split(Text, '\n'))
    Lines.push_back(Line.trim().str());
  return Lines;
}

/// Whether \p Expected occur in \p Lines in order, from the line equal to
/// \p From on, each the next line (after skipping `let`s) -- a FileCheck
/// with CHECK-NEXT; the first mismatch otherwise.
testing::AssertionResult followsIn(const std::vector<std::string> &Lines,
                                   llvm::StringRef From,
                                   const std::vector<std::string> &Expected) {
  auto It = llvm::find(Lines, From.str());
  if (It == Lines.end())
    return testing::AssertionFailure() << "no line `" << From.str() << "`";
  for (const std::string &Want : Expected) {
    do
      ++It;
    while (It != Lines.end() && llvm::StringRef(*It).starts_with("let "));
    if (It == Lines.end() || *It != Want)
      return testing::AssertionFailure()
             << "expected `" << Want << "`, found `"
             << (It == Lines.end() ? "<end>" : *It) << "`";
  }
  return testing::AssertionSuccess();
}

class HandoffProtocolTest : public testing::Test {
protected:
  void SetUp() override {
    const Lowered &L = optimalWithFlags();
    ASSERT_TRUE(L.LIR) << L.Problems;
    K = &*L.LIR;
    Lines = printedLines(*K);
  }
  const Kernel *K = nullptr;
  std::vector<std::string> Lines;
};

TEST_F(HandoffProtocolTest, EveryHandoffStatementIsTheProtocols) {
  unsigned Flags = 0;
  for (const Stmt &S : K->Insts)
    if (const ExtensionInst *I = S.extension()) {
      EXPECT_EQ(&I->extension(), &flags())
          << "a statement of extension " << I->extension().name().str();
      ++Flags;
    }
  // 6 set-up, 1 sync; loader: 2 x (wait, arrive); storer: wait, arrive;
  // compute: 2 waits, 2 arrivals, wait, sync, arrive.
  EXPECT_EQ(Flags, 7u + 6u + 7u);
  EXPECT_TRUE(llvm::none_of(Lines, [](const std::string &L) {
    return llvm::StringRef(L).contains("mbarrier");
  }));
}

TEST_F(HandoffProtocolTest, SetUpInitialisesEveryBarrierWithItsArrivals) {
  EXPECT_TRUE(
      followsIn(Lines, "let GN = ceil_div(b.extent(1), 256)",
                {"flag.init lhs_ring.full, arrivals=1",
                 "flag.init lhs_ring.empty, arrivals=256",
                 "flag.init rhs_ring.full, arrivals=1",
                 "flag.init rhs_ring.empty, arrivals=256",
                 "flag.init staged_tile.full, arrivals=1",
                 "flag.init staged_tile.empty, arrivals=1", "cta.sync 384"}));
}

TEST_F(HandoffProtocolTest, TheLoaderWaitsForFreeSlotsAndArrivesBeforeFilling) {
  EXPECT_TRUE(followsIn(
      Lines, "for k in range(0, a.extent(1), 64) {",
      {"flag.wait lhs_ring.empty[it % 3], parity=((it / 3) & 1) ^ 1 free by 1",
       "flag.arrive lhs_ring.full[it % 3] by 1, expects 16384",
       "call nv.sm90.CopyAsyncTensor",
       "flag.wait rhs_ring.empty[it % 3], parity=((it / 3) & 1) ^ 1 free by 1",
       "flag.arrive rhs_ring.full[it % 3] by 1, expects 32768",
       "call nv.sm90.CopyAsyncTensor", "}", "}", "}",
       // The storer, a role of its own, waits for the staged tile.
       "scope thread[32:33] storer = Mesh(thread, (1):(1) + 32, participant) {",
       "for task in range(cta.x, GM * GN, 132)  # persistent_tiles, group_m=8 {",
       "flag.wait staged_tile.full[0], parity=tiles_done & 1 full by 1",
       "call nv.sm90.CopyAsyncTensor",
       "flag.arrive staged_tile.empty[0] by 1"}));
}

TEST_F(HandoffProtocolTest, TheConsumersWaitForFullSlotsAndPublishTheirWrites) {
  EXPECT_TRUE(followsIn(
      Lines, "zero acc",
      {"for k in range(0, a.extent(1), 64) {",
       "flag.wait lhs_ring.full[it % 3], parity=(it / 3) & 1 full by 256",
       "flag.wait rhs_ring.full[it % 3], parity=(it / 3) & 1 full by 256",
       "call nv.sm90.Wgmma", "flag.arrive lhs_ring.empty[it % 3] by 256",
       "flag.arrive rhs_ring.empty[it % 3] by 256", "}",
       "flag.wait staged_tile.empty[0], parity=(tiles_done & 1) ^ 1 free by "
       "256",
       "call generic.Copy", "cta.sync 256",
       "flag.arrive staged_tile.full[0] by thread 128"}));
}

TEST_F(HandoffProtocolTest, BarriersAndViewsTakeTheBackendsMemoryFacts) {
  ASSERT_EQ(K->Barriers.size(), 6u);
  EXPECT_EQ(K->Barriers[0].TxBytes, 16384); // lhs_ring.full
  EXPECT_EQ(K->Barriers[2].TxBytes, 32768); // rhs_ring.full
  unsigned Objects = 0, Views = 0;
  for (const Region &R : K->Regions) {
    if (R.Kind == RegionKind::Barrier) {
      ++Objects;
      EXPECT_EQ(R.Object, "flag") << R.Name;
      EXPECT_EQ(R.Bytes, 4) << R.Name;
      EXPECT_EQ(R.Align, 4) << R.Name;
      EXPECT_EQ(R.AlignReason, "flag") << R.Name;
    } else {
      ++Views;
      EXPECT_EQ(R.Align, 256) << R.Name;
      EXPECT_EQ(R.AlignReason, "flag view") << R.Name;
    }
  }
  EXPECT_EQ(Objects, 3u + 3u + 3u + 3u + 1u + 1u);
  EXPECT_EQ(Views, 3u + 3u + 1u);
  // The views' sizes are multiples of 256 bytes: they follow one another
  // without padding, then the 14 flags.
  EXPECT_EQ(K->SharedBytes, 3 * 16384 + 3 * 32768 + 65536 + 14 * 4);
  EXPECT_EQ(K->SharedAlign, 256);
}

} // namespace
