//===- plugin/backend/cuda_sm90/DeviceFunction.cpp - __global__ -------------===//
//
// The device side of a kernel: the shared-memory map as constexpr offsets,
// descriptor and store-pair constants, the __global__ function's signature
// and set-up, and the structured statements (roles, tile and K loops, lets,
// accumulator fragments) walked one for one.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/KernelEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace tf::backend::sm90 {

using namespace lower;
using lower::sm90::SmemDescriptor;
namespace ext = lower::sm90;

void KernelEmitter::constants() {
  OS << "// Launch shape: " << K.BlockThreads << " threads";
  if (K.Persistent)
    OS << ", at most " << expr(K.Grid) << " persistent CTAs";
  OS << "; at least " << K.ResidentCtas << " CTA"
     << (K.ResidentCtas == 1 ? "" : "s")
     << " resident per SM (__launch_bounds__ caps registers to fit).\n";
  OS << "constexpr int block_threads = " << K.BlockThreads << ";\n";
  OS << "constexpr int resident_ctas = " << K.ResidentCtas << ";\n";
  OS << "// The shared-memory map (`tf finalize`): byte offsets from the "
        "dynamic\n// shared memory's base, which is "
     << K.SharedAlign << "-byte aligned.\n";
  OS << "constexpr std::uint32_t shared_bytes = " << K.SharedBytes << ";\n";
  OS << "constexpr std::uint32_t shared_align = " << K.SharedAlign << ";\n";
  for (const Region &R : K.Regions) {
    if (R.Kind == RegionKind::RingStage && R.Stage != 0)
      continue;
    if (R.Kind == RegionKind::Barrier) {
      // One line per barrier array, at its first object.
      for (const Barrier &B : K.Barriers)
        if (B.Regions.front() == RegionId(&R - K.Regions.data())) {
          OS << "constexpr std::uint32_t " << identifier(B.Name)
             << "_offset = " << R.Offset << "; // " << B.Count
             << " mbarrier(s), " << B.Arrivals << " arrival(s)";
          if (B.TxBytes)
            OS << " + " << B.TxBytes << " transaction bytes";
          OS << " per phase\n";
        }
      continue;
    }
    const bool Ring = R.Kind == RegionKind::RingStage;
    const std::string Name =
        identifier(Ring ? R.Name.substr(0, R.Name.rfind('[')) : R.Name);
    OS << "// " << Name << ": " << R.Layout << ", "
       << llvm::join(
              llvm::map_range(R.Shape,
                              [](std::int64_t S) { return std::to_string(S); }),
              " x ")
       << " " << name(R.Element) << "\n";
    OS << "constexpr std::uint32_t " << Name << "_offset = " << R.Offset
       << ";\n";
    if (Ring)
      OS << "constexpr std::uint32_t " << Name
         << "_stage_bytes = " << StageBytes.at(R.Value) << ";\n";
  }
  for (const auto &[Ring, List] : Descriptors)
    for (const SmemDescriptor &D : List) {
      OS << "// WGMMA descriptor of a "
         << firstStage(Ring).Name.substr(0, firstStage(Ring).Name.rfind('['))
         << " operand; the start (the operand's shared address) is added "
            "per use.\n";
      OS << "__device__ constexpr sm90::SmemDescriptor " << descName(Ring, D)
         << " = sm90::SmemDescriptor::make(\n    0, "
         << (D.LeadingUsed ? std::to_string(D.LeadingBytes)
                           : "16 /* LBO unused by this layout */")
         << ", " << D.StrideBytes << ", " << smemSwizzle(D.Swizzle) << ", "
         << D.BaseOffset << ");\n";
    }
  for (const auto &[Id, S] : Stores) {
    const auto &I = K.Insts[Id].get<StoreFragmentStmt>();
    if (readsGlobal(I)) {
      OS << "// Tile row or column of register pair p's first element in "
         << K.Regions[I.View].Name << ",\n// added to each thread's.\n";
      using Coord = AccumulatorStore::Coord;
      const std::pair<const char *, std::int64_t Coord::*> Parts[] = {
          {"rows", &Coord::Row}, {"cols", &Coord::Col}};
      for (std::size_t Axis = 0; Axis < 2; ++Axis) {
        if (!loadAxes(I)[Axis])
          continue;
        const auto &[Which, Part] = Parts[Axis];
        OS << "__device__ constexpr int " << identifier(K.Regions[I.View].Name)
           << "_pair_" << Which << "[" << S.Pair.size() << "] = {";
        for (std::size_t P = 0; P < S.Pair.size(); ++P)
          OS << (P % 16 ? " " : "\n    ") << S.Pair[P].*Part << ",";
        OS << "\n};\n";
      }
    }
    OS << "// Pre-swizzle byte offsets of accumulator register pairs "
          "(2p, 2p + 1) in\n// "
       << K.Regions[I.View].Name
       << ", added to each thread's base (PTX's wgmma D fragment).\n";
    OS << "__device__ constexpr std::uint32_t "
       << identifier(K.Regions[I.View].Name) << "_pairs[" << S.PairBytes.size()
       << "] = {";
    for (std::size_t P = 0; P < S.PairBytes.size(); ++P)
      OS << (P % 8 ? " " : "\n    ") << S.PairBytes[P] << ",";
    OS << "\n};\n";
  }
  registerConstants();
  OS << "\n";
}

void KernelEmitter::deviceFunction() {
  OS << "// " << K.Name << " at " << position(K.Range) << ", lowered for "
     << K.Target << ".\n";
  OS << "__global__ void __launch_bounds__(block_threads, resident_ctas)";
  // Clusters of consecutive CTAs (the grid is a multiple of them): the
  // kernel's attribute, so that every launch forms them.
  if (K.ClusterCtas > 1)
    OS << " __cluster_dims__(" << K.ClusterCtas << ", 1, 1)";
  OS << "\n" << Id << "(";
  std::vector<std::string> Params;
  for (std::size_t M = 0; M < K.Maps.size(); ++M)
    Params.push_back("const __grid_constant__ CUtensorMap " + MapNames[M]);
  for (auto [P, Dim] : Extents)
    Params.push_back("int " + identifier(K.Parameters[P].Name) + "_extent" +
                     std::to_string(Dim));
  for (unsigned P : globalTensors()) {
    const Parameter &X = K.Parameters[P];
    // Read only: const and __restrict__; stored into (and perhaps read
    // back, a residual updated in place): neither.
    Params.push_back(StoredTensors.count(P)
                         ? std::string(loadedType(X.Element)) + " *" +
                               identifier(X.Name) + "_data"
                         : "const " + std::string(loadedType(X.Element)) +
                               " *__restrict__ " + identifier(X.Name) +
                               "_data");
    for (int D = 0; D < X.Rank; ++D)
      Params.push_back("int " + identifier(X.Name) + "_stride" +
                       std::to_string(D));
  }
  for (const Parameter &P : K.Parameters)
    if (P.What == Parameter::Kind::Integer)
      Params.push_back("int " + identifier(P.Name));
    else if (P.What == Parameter::Kind::Float)
      Params.push_back("float " + identifier(P.Name));
  OS << llvm::join(Params, ",\n" + std::string(Id.size() + 1, ' ')) << ") {\n";
  OS << "  extern __shared__ __align__(shared_align) std::uint8_t smem[];\n";
  Used = usedVariables(K.Body);
  OS << "  const int cta_x = blockIdx.x;\n";
  for (const Barrier &B : K.Barriers)
    OS << "  sm90::Mbarrier *const " << identifier(B.Name)
       << " = reinterpret_cast<sm90::Mbarrier *>(smem + " << identifier(B.Name)
       << "_offset);\n";
  body(K.Body, 2);
  OS << "}\n\n";
}

void KernelEmitter::origin(const Stmt &S, unsigned Indent) {
  if (S.Range.valid() || !S.Range.File.empty())
    OS.indent(Indent) << "// " << position(S.Range) << "\n";
}

void KernelEmitter::body(const std::vector<InstId> &Body, unsigned Indent) {
  const std::optional<std::size_t> Split = wholeTilesSplit(Body);
  if (!Split) {
    body(Body, 0, Body.size(), Indent);
    return;
  }
  // The register program twice: without checks where every tile it moves
  // lies inside its tensor (the usual case), with them at edges.
  body(Body, 0, *Split, Indent);
  OS.indent(Indent) << "// every tile below inside its tensor (or past its "
                       "last dimension's end by whole vectors) and aligned: "
                       "vector moves, no element checks\n";
  OS.indent(Indent) << "if ("
                    << llvm::join(wholeTilesCondition(Body, *Split),
                                  "\n" + std::string(Indent + 4, ' ') + "&& ")
                    << ") {\n";
  WholeTiles = true;
  body(Body, *Split, Body.size(), Indent + 2);
  WholeTiles = false;
  OS.indent(Indent) << "} else {\n";
  LastLine = 0;
  body(Body, *Split, Body.size(), Indent + 2);
  OS.indent(Indent) << "}\n";
}

void KernelEmitter::body(const std::vector<InstId> &Body, std::size_t From,
                         std::size_t To, unsigned Indent) {
  for (std::size_t At = From; At < To; ++At) {
    const Stmt &S = K.Insts[Body[At]];
    // A comment naming the source line each group of statements comes from.
    if (S.Range.Line && S.Range.Line != LastLine && !S.is<RoleStmt>()) {
      LastLine = S.Range.Line;
      origin(S, Indent);
    }
    if (isWgmma(Body[At])) {
      wgmmaRun(Body, At, Indent);
      continue;
    }
    stmt(Body[At], Indent);
  }
}

void KernelEmitter::role(InstId Id, unsigned Indent) {
  const std::vector<InstId> &Body = K.Insts[Id].Body;
  const RoleStmt &I = K.Insts[Id].get<RoleStmt>();
  OS.indent(Indent) << "// " << I.Name;
  if (!I.Mesh.empty())
    OS << " = " << I.Mesh;
  OS << "\n";
  OS.indent(Indent);
  if (I.End - I.Begin == 1)
    OS << "if (threadIdx.x == " << I.Begin << ") {\n";
  else if (I.Begin == 0)
    OS << "if (threadIdx.x < " << I.End << ") {\n";
  else
    OS << "if (threadIdx.x >= " << I.Begin << " && threadIdx.x < " << I.End
       << ") {\n";
  if (RoleNeedsGroups.count(Id)) {
    // The thread's coordinates in its warpgroup (PTX's wgmma fragments).
    const std::string Axis =
        RoleAxis.count(Id) ? identifier(RoleAxis.at(Id)) : "group";
    OS.indent(Indent + 2) << "const int " << Axis << " = (threadIdx.x - "
                          << I.Begin << ") / 128;\n";
    OS.indent(Indent + 2) << "const int warp = threadIdx.x / 32 % 4, lane8 = "
                             "threadIdx.x % 32 / 4, lane4 = threadIdx.x % 4;\n";
  }
  declareTiles(Id, Indent + 2);
  const InstId Saved = CurrentRole;
  std::set<std::string> SavedUsed = std::exchange(Used, usedVariables(Body));
  CurrentRole = Id;
  body(Body, Indent + 2);
  CurrentRole = Saved;
  Used = std::move(SavedUsed);
  OS.indent(Indent) << "}\n";
}

void KernelEmitter::stmt(InstId Id, unsigned Indent) {
  const Stmt &S = K.Insts[Id];
  auto Line = [&]() -> llvm::raw_ostream & { return OS.indent(Indent); };
  if (const auto *I = as<ext::Inst>(S)) {
    extension(S, *I, Indent);
    return;
  }
  switch (S.kind()) {
  case StmtKind::Role:
    role(Id, Indent);
    return;
  case StmtKind::TileLoop: {
    const auto &I = S.get<TileLoopStmt>();
    Line() << "// " << (I.Persistent ? "persistent_tiles" : "grid_tiles")
           << ", group_m = " << I.GroupM << "\n";
    Line() << "for (int task = " << expr(I.Start) << "; task < "
           << expr(I.Bound) << "; task += " << expr(I.Stride) << ") {\n";
    body(S.Body, Indent + 2);
    Line() << "}\n";
    return;
  }
  case StmtKind::KLoop: {
    const auto &I = S.get<KLoopStmt>();
    Line() << "for (int " << identifier(I.Var) << " = " << expr(I.Start)
           << "; " << identifier(I.Var) << " < " << expr(I.Bound) << "; "
           << identifier(I.Var) << " += " << I.Step << ") {\n";
    // One copy: a loop's running tiles live across both copies, and
    // written twice the online softmax spilled.
    body(S.Body, 0, S.Body.size(), Indent + 2);
    Line() << "}\n";
    return;
  }
  case StmtKind::Let: {
    const auto &I = S.get<LetStmt>();
    if (!Used.count(I.Var))
      return;
    Line() << "const int " << identifier(I.Var) << " = " << expr(I.Value)
           << ";\n";
    return;
  }
  case StmtKind::ZeroFragment: {
    const hir::ValueId Acc = S.get<ZeroFragmentStmt>().Acc;
    const AccInfo &A = Accumulators.at(Acc);
    Line() << "float " << accName(Acc) << "[" << A.Blocks << "][" << A.N / 2
           << "];\n";
    // Every block: each WGMMA accumulates into its block (scale-d 1).
    const bool Blocked = A.Blocks > 1;
    if (Blocked) {
      Line() << "#pragma unroll\n";
      Line() << "for (int b = 0; b < " << A.Blocks << "; ++b)\n";
    }
    const unsigned Inner = Indent + (Blocked ? 2 : 0);
    OS.indent(Inner) << "#pragma unroll\n";
    OS.indent(Inner) << "for (int i = 0; i < " << A.N / 2 << "; ++i)\n";
    OS.indent(Inner + 2) << accName(Acc) << "[" << (Blocked ? "b" : "0")
                         << "][i] = 0.0f;\n";
    return;
  }
  case StmtKind::StoreFragment:
    storeFragment(Id, Indent);
    return;
  case StmtKind::RegisterLoad:
  case StmtKind::RegisterMath:
  case StmtKind::RegisterReduce:
  case StmtKind::RegisterStore:
  case StmtKind::RegisterShare:
  case StmtKind::RegisterGather:
    registerStmt(S, Indent);
    return;
  case StmtKind::AtomCall:
  case StmtKind::Extension:
    llvm_unreachable("the verifier admits only sm90 atom calls and "
                     "extension statements");
  }
}

} // namespace tf::backend::sm90
