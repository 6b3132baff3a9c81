//===- plugin/analysis/Cost.cpp - What a kernel costs on a target ---------===//
//
// analyzeCost (Cost.h), the model behind `tf analyze`. docs/analyze.md
// states it for users; here each formula sits next to its code. Run-time
// extents come from Bindings (`--shape`); whatever depends on an extent that
// is still symbolic is left unset (precision unknown).
//
//   waves     The kernel's CTAs -- the tile loop's mesh size, or one per tile
//             for a mesh of run-time size -- run on `sm.count` SMs
//             (`cpu.cores` cores), at most c per SM at once, c the smallest
//             of: floor(sm.shared_memory.capacity / shared memory per CTA),
//             floor(sm.threads.max / threads per CTA), floor(
//             sm.registers.capacity / registers per CTA), sm.ctas.max.
//             waves = ceil(CTAs / (SMs x c)). A persistent kernel is also
//             shown as one CTA per tile, a grid of one CTA per tile also as
//             SMs x c persistent CTAs, both with the same c.
//   compute   A contraction (an op with a domain dimension its written
//             operand does not index: tf::matmul, a tiled MMA) does
//             2 x product(domain) flop per execution; executions are the
//             product of the trip counts of the loops around it
//             (tile_offsets: ceil(extent / step); a tile loop: GM x GN
//             tiles over all CTAs; outside every tile loop, once per CTA).
//             Useful flop leave out the tile padding: per tile_offsets loop
//             extent / (trips x step), along the tile loop's M and N the
//             extents its windows cover over the tiles' (usefulFraction).
//   bytes     Every access of an op moves its window (or the domain's
//             extents it indexes) x element size per execution: reads and
//             writes per tensor, gmem and smem (tf::empty allocates, it
//             moves nothing). HBM: the tile loop's tiles run in rounds --
//             round r is the r-th tile of every persistent CTA, or the r-th
//             group of SMs x c tiles of a grid -- and a round reads each gmem
//             panel (Capacity.h, wavePanels) once from HBM when the first
//             round's panels fit the last-level cache (`memory.l2.capacity`,
//             else `cache.l3.capacity`); when they do not, the cache holds
//             the share min(1, capacity / window) of them and the part of
//             the reads they would have served that it does not hold goes
//             to HBM too. Writes go to HBM once.
//   peaks     Capacity.h's: shared memory is the sum of the allocations
//             (exact when static); registers count tensors only (a lower
//             bound), per thread and, each thread at its own peak, per CTA.
//   buffers   A gmem tensor holds its panels of the first round and its
//             reuse window is the round's panels of all tensors (an upper
//             bound: CTAs advancing along K together need a slice of it); a
//             smem allocation holds its bytes within the CTA's peak; a
//             register tensor its registers within its mesh's peak.
//   roofline  time = max(useful flop / peak, compulsory bytes (each
//             tensor once) / bandwidth), the peak
//             `tensor_core.dense.<dtype>` (else `amx.<dtype>.peak`; for a
//             reduction in registers, without an atom, `cuda_core.f32`), the
//             bandwidth `memory.hbm.bandwidth` (else
//             `memory.dram.bandwidth`); TFLOP/s = useful flop / time. A
//             lower bound on every schedule's time.
//   estimate  this schedule: the busiest SM's tiles x flop per tile at
//             rate / SMs (rate `tensor_core.sustained.<dtype>`, measured
//             under back-to-back launches, else the peak), plus its
//             main-loop steps x `pipeline.step_overhead` (the time the
//             tensor cores idle between two steps), against the HBM bytes
//             above at the bandwidth; TFLOP/s = useful flop / time.
//
//===----------------------------------------------------------------------===//

#include "analysis/Cost.h"
#include "analysis/Residence.h"
#include "targets/TargetFacts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tf::analysis {

using hir::ExprId;
using hir::None;
using hir::StmtId;
using hir::ValueId;

llvm::StringRef precisionName(Precision P) {
  switch (P) {
  case Precision::Exact:
    return "exact";
  case Precision::UpperBound:
    return "upper_bound";
  case Precision::LowerBound:
    return "lower_bound";
  case Precision::Estimate:
    return "estimate";
  case Precision::Unknown:
    break;
  }
  return "unknown";
}

namespace {

std::int64_t ceilDiv(std::int64_t A, std::int64_t B) { return (A + B - 1) / B; }

/// A value's name as the reports print it: its C++ name, else %N.
std::string valueName(const hir::Kernel &K, ValueId V) {
  if (V < K.Values.size() && !K.Values[V].Name.empty())
    return K.Values[V].Name;
  return "%" + std::to_string(V);
}

/// The first persistent_tiles / grid_tiles loop in program order.
StmtId firstTileLoop(const hir::Kernel &K) {
  for (StmtId S : K.preorder()) {
    const hir::Stmt &St = K.Stmts[S];
    if (St.Kind == hir::StmtKind::Loop &&
        St.Loop != hir::LoopKind::TileOffsets)
      return S;
  }
  return None;
}

/// Iterations of loop \p L over the whole kernel: tile_offsets(extent,
/// step) runs ceil(extent / step) times per enclosing iteration, a tile loop
/// runs GM x GN times over all CTAs.
std::optional<std::int64_t> loopTrips(const hir::Kernel &K, StmtId L,
                                      const Bindings &B) {
  const hir::Stmt &Loop = K.Stmts[L];
  if (Loop.Loop != hir::LoopKind::TileOffsets) {
    std::optional<TileGrid> G = tileGrid(K, L, &B);
    if (!G)
      return std::nullopt;
    return G->tiles();
  }
  if (Loop.Bounds.size() < 2)
    return std::nullopt;
  std::optional<std::int64_t> Extent = evaluate(K, Loop.Bounds[0], &B);
  std::optional<std::int64_t> Step = evaluate(K, Loop.Bounds[1], &B);
  if (!Extent || !Step || *Step <= 0 || *Extent < 0)
    return std::nullopt;
  return ceilDiv(*Extent, *Step);
}

/// The kernel's CTAs: its tile loop's, else its outermost topology's extent.
std::optional<std::int64_t> kernelCtas(const hir::Kernel &K,
                                       const std::optional<TileGrid> &G) {
  if (G)
    return G->CTAs;
  if (!K.Topologies.empty() && K.Topologies.front().extent.is_constant())
    return K.Topologies.front().extent.value;
  return std::nullopt;
}

/// Executions of statement \p S over the whole kernel.
std::optional<std::int64_t> trips(const hir::Kernel &K, StmtId S,
                                  const Bindings &B,
                                  std::optional<std::int64_t> CTAs) {
  std::int64_t N = 1;
  bool InTileLoop = false;
  for (StmtId A = K.Stmts[S].Parent; A != None; A = K.Stmts[A].Parent) {
    if (K.Stmts[A].Kind != hir::StmtKind::Loop)
      continue;
    InTileLoop |= K.Stmts[A].Loop != hir::LoopKind::TileOffsets;
    std::optional<std::int64_t> T = loopTrips(K, A, B);
    if (!T)
      return std::nullopt;
    N *= *T;
  }
  if (!InTileLoop) {
    if (!CTAs)
      return std::nullopt;
    N *= *CTAs;
  }
  return N;
}

/// The static size of domain dimension \p D.
std::optional<std::int64_t> domainExtent(const hir::AccessRelation &R,
                                         unsigned D) {
  const IntTuple &Dom = R.Domain;
  if (Dom.is_leaf())
    return D == 0 ? staticProduct(Dom) : std::nullopt;
  if (static_cast<int>(D) >= Dom.rank())
    return std::nullopt;
  return staticProduct(Dom.mode(static_cast<int>(D)));
}

/// Elements one execution of an op moves through access \p A.
std::optional<std::int64_t> accessElements(const hir::AccessRelation &R,
                                           const hir::Access &A) {
  std::int64_t N = 1;
  if (!A.Extents.empty()) {
    for (std::int64_t E : A.Extents)
      N *= E;
    return N;
  }
  for (unsigned D : A.Map) {
    std::optional<std::int64_t> E = domainExtent(R, D);
    if (!E)
      return std::nullopt;
    N *= *E;
  }
  return N;
}

/// Whether \p R contracts: a dimension some read indexes and no write does.
bool isContraction(const hir::AccessRelation &R) {
  std::set<unsigned> Read, Written;
  bool Writes = false;
  for (const hir::Access &A : R.Accesses) {
    auto &Into = A.Kind == hir::AccessKind::Read ? Read : Written;
    Writes |= A.Kind != hir::AccessKind::Read;
    Into.insert(A.Map.begin(), A.Map.end());
  }
  if (!Writes)
    return false;
  return std::any_of(Read.begin(), Read.end(),
                     [&](unsigned D) { return !Written.count(D); });
}

/// How the rate facts name an input type: one rate for both fp8 formats
/// and both 8-bit integer types, as the datasheets give them.
std::string rateName(DType In) {
  switch (In) {
  case DType::fp8e4m3:
  case DType::fp8e5m2:
    return "fp8";
  case DType::i8:
  case DType::u8:
    return "int8";
  default:
    return std::string(name(In));
  }
}

/// The fact giving the peak rate of contractions on \p In: the matrix
/// units' for a scheduled op; for a reduction the kernel computes in
/// registers (no atom: register math is f32, one add or max per element),
/// the cores' f32 rate.
std::pair<std::optional<double>, std::string>
peakFlops(const targets::MergedTarget &T, DType In, bool InRegisters) {
  const std::string Name = rateName(In);
  const std::vector<std::string> Keys =
      InRegisters ? std::vector<std::string>{"cuda_core.f32"}
                  : std::vector<std::string>{"tensor_core.dense." + Name,
                                             "amx." + Name + ".peak"};
  for (const std::string &Key : Keys)
    if (std::optional<double> V = numberFact(T, Key))
      return {V, Key};
  return {std::nullopt, ""};
}

/// "cta.persistent": a mesh's level and axis names.
std::string spaceOf(const Mesh &M) {
  std::string Out(M.level.view());
  std::string Axes;
  for (const Name &A : M.axes)
    Axes += (Axes.empty() ? "" : ",") + std::string(A.view());
  return Axes.empty() ? Out : Out + "." + Axes;
}

/// The names of the loop indices of loops around \p S (up to and including
/// \p Outer, when given) that none of \p Deps is an index of.
std::string timeLoops(const hir::Kernel &K, StmtId S,
                      const std::set<ValueId> &Deps, StmtId Outer) {
  std::vector<std::string> Names;
  for (StmtId A = K.Stmts[S].Parent; A != None; A = K.Stmts[A].Parent) {
    const hir::Stmt &L = K.Stmts[A];
    if (L.Kind == hir::StmtKind::Loop) {
      bool Depends = false;
      for (ValueId I : L.Indices)
        Depends |= Deps.count(I) != 0;
      if (!Depends)
        for (auto It = L.Indices.rbegin(); It != L.Indices.rend(); ++It)
          Names.insert(Names.begin(), valueName(K, *It));
    }
    if (A == Outer)
      break;
  }
  std::string Out;
  for (const std::string &N : Names)
    Out += (Out.empty() ? "" : ",") + N;
  return Out.empty() ? "none" : Out;
}

/// The part of a contraction's executions inside the tensors' extents: per
/// tile_offsets loop around \p S, extent / (trips x step); inside the tile
/// loop, along M (and N) the covered extent over the tiles' rows (columns),
/// E / (ceil(E / tile) x tile). None while an extent is unknown.
std::optional<double> usefulFraction(const hir::Kernel &K, StmtId S,
                                     const Bindings &B, const WaveReport &W) {
  auto Covered = [](std::optional<std::int64_t> Extent,
                    std::optional<std::int64_t> Tile) -> std::optional<double> {
    if (!Extent || !Tile || *Extent <= 0 || *Tile <= 0)
      return std::nullopt;
    return static_cast<double>(*Extent) /
           static_cast<double>(ceilDiv(*Extent, *Tile) * *Tile);
  };
  double F = 1;
  for (StmtId A = K.Stmts[S].Parent; A != None; A = K.Stmts[A].Parent) {
    const hir::Stmt &L = K.Stmts[A];
    if (L.Kind != hir::StmtKind::Loop)
      continue;
    std::optional<double> Part;
    if (L.Loop == hir::LoopKind::TileOffsets) {
      if (L.Bounds.size() < 2)
        return std::nullopt;
      Part = Covered(evaluate(K, L.Bounds[0], &B), evaluate(K, L.Bounds[1], &B));
    } else if (A == W.Loop) {
      Part = Covered(W.ExtentM, W.TileM);
      if (Part && L.Indices.size() > 1) {
        std::optional<double> AlongN = Covered(W.ExtentN, W.TileN);
        Part = AlongN ? std::optional(*Part * *AlongN) : std::nullopt;
      }
    } else {
      return std::nullopt;
    }
    if (!Part)
      return std::nullopt;
    F *= *Part;
  }
  return F;
}

//===- Waves --------------------------------------------------------------===//

/// The limits on CTAs per SM (file comment) for the kernel's resources.
void occupancyLimits(const hir::Kernel &K, const targets::MergedTarget &T,
                     const KernelCost &C, WaveReport &W) {
  if (!intFact(T, "sm.count")) {
    // A CPU target: one worker per core.
    W.Limits.push_back({"worker slots", 1, Precision::Exact, "one per core"});
    return;
  }
  std::optional<std::int64_t> SmemSm = intFact(T, "sm.shared_memory.capacity");
  OccupancyLimit Smem{"shared memory", std::nullopt, Precision::Unknown, ""};
  if (C.Smem.Capacity && C.Smem.Peak > *C.Smem.Capacity) {
    Smem.CtasPerSm = 0;
    Smem.P = Precision::Exact;
    Smem.Why = formatBytes(C.Smem.Peak) + " per CTA exceeds " +
               formatBytes(*C.Smem.Capacity);
  } else if (SmemSm && C.Smem.Peak > 0) {
    Smem.CtasPerSm = *SmemSm / C.Smem.Peak;
    Smem.P = C.Smem.P == Precision::Exact ? Precision::Exact
                                          : Precision::UpperBound;
    Smem.Why = formatBytes(C.Smem.Peak) + " of " + formatBytes(*SmemSm) +
               " per SM";
  } else {
    Smem.Why = SmemSm ? "none allocated" : "no sm.shared_memory.capacity";
  }
  W.Limits.push_back(Smem);

  OccupancyLimit Threads{"threads", std::nullopt, Precision::Unknown, ""};
  std::optional<std::int64_t> ThreadsSm = intFact(T, "sm.threads.max");
  if (K.Topologies.size() >= 2 && K.Topologies.back().extent.is_constant() &&
      K.Topologies.back().extent.value > 0 && ThreadsSm) {
    std::int64_t N = K.Topologies.back().extent.value;
    Threads.CtasPerSm = *ThreadsSm / N;
    Threads.P = Precision::Exact;
    Threads.Why = std::to_string(N) + " of " + std::to_string(*ThreadsSm) +
                  " per SM";
  } else {
    Threads.Why = K.Topologies.size() < 2 ? "no thread level yet"
                                          : "unknown thread count";
  }
  W.Limits.push_back(Threads);

  OccupancyLimit Regs{"registers", std::nullopt, Precision::Unknown, ""};
  std::optional<std::int64_t> RegsSm = intFact(T, "sm.registers.capacity");
  if (RegsSm && K.ResidentCtasRange.valid() && Threads.CtasPerSm) {
    // The backend caps registers per thread so that the kernel's
    // tf::resident_ctas fit (spilling where the program needs more).
    const std::int64_t PerThread =
        *RegsSm / (K.ResidentCtas * K.Topologies.back().extent.value);
    Regs.CtasPerSm = K.ResidentCtas;
    Regs.P = Precision::LowerBound;
    Regs.Why = "tf::resident_ctas(" + std::to_string(K.ResidentCtas) +
               "): at most " + std::to_string(PerThread) + " per thread";
  } else if (RegsSm && C.Registers.PerCta > 0) {
    Regs.CtasPerSm = *RegsSm / C.Registers.PerCta;
    // Tensors only: the CTA needs at least these registers.
    Regs.P = Precision::UpperBound;
    Regs.Why = "at least " + std::to_string(C.Registers.PerCta) + " of " +
               std::to_string(*RegsSm) + " per SM";
  } else {
    Regs.Why = "no register tensors";
  }
  W.Limits.push_back(Regs);

  if (std::optional<std::int64_t> Slots = intFact(T, "sm.ctas.max"))
    W.Limits.push_back({"CTA slots", *Slots, Precision::Exact,
                        "sm.ctas.max"});
}

/// Fills the occupancy and the waves of \p D from \p W's limits.
void distribute(const WaveReport &W, Distribution &D) {
  const OccupancyLimit *Min = nullptr;
  bool AllExact = true;
  for (const OccupancyLimit &L : W.Limits) {
    if (!L.CtasPerSm) {
      AllExact = false;
      continue;
    }
    AllExact &= L.P == Precision::Exact;
    if (!Min || *L.CtasPerSm < *Min->CtasPerSm)
      Min = &L;
  }
  if (Min) {
    D.CtasPerSm = *Min->CtasPerSm;
    D.LimitedBy = Min->Resource;
    // One per SM is the least a CTA that fits gets, so a binding limit of
    // one that is exact is the answer whatever the unknown limits say.
    D.CtasPerSmP = Min->P == Precision::Exact && (AllExact || *D.CtasPerSm <= 1)
                       ? Precision::Exact
                       : Precision::UpperBound;
  }
  if (!D.CTAs || !W.Units)
    return;
  D.WavesAtOnePerSm = ceilDiv(*D.CTAs, *W.Units);
  if (!D.CtasPerSm || *D.CtasPerSm < 1)
    return;
  D.Waves = ceilDiv(*D.CTAs, *W.Units * *D.CtasPerSm);
  // At most CtasPerSm per SM: at least Waves; at least one per SM: at most
  // WavesAtOnePerSm.
  D.WavesP = D.CtasPerSmP == Precision::Exact || *D.Waves == *D.WavesAtOnePerSm
                 ? Precision::Exact
                 : Precision::LowerBound;
}

//===- Buffers ------------------------------------------------------------===//

/// The innermost loop around the ops that write \p V (a ring, a buffer):
/// its indices, the loop whose iterations refill it; "none" outside loops.
std::string refillLoop(const hir::Kernel &K, ValueId V) {
  std::string Out = "none";
  unsigned Depth = 0;
  for (StmtId S : K.preorder()) {
    const hir::Stmt &St = K.Stmts[S];
    if (St.Kind != hir::StmtKind::Op || St.Op == hir::OpKind::Empty)
      continue;
    bool Writes = false;
    for (const hir::Access &A : St.Access.Accesses)
      Writes |= A.Kind != hir::AccessKind::Read && A.Operand != None &&
                rootOf(K, A.Operand) == V;
    if (!Writes)
      continue;
    unsigned D = 0;
    StmtId Innermost = None;
    for (StmtId A = St.Parent; A != None; A = K.Stmts[A].Parent)
      if (K.Stmts[A].Kind == hir::StmtKind::Loop) {
        if (Innermost == None)
          Innermost = A;
        ++D;
      }
    if (Innermost != None && D > Depth) {
      Depth = D;
      Out.clear();
      for (ValueId I : K.Stmts[Innermost].Indices)
        Out += (Out.empty() ? "" : ",") + valueName(K, I);
    }
  }
  return Out;
}

/// The loops a register tensor stays live across: the innermost loop around
/// a use that does not hold its definition.
std::string liveAcross(const hir::Kernel &K, ValueId V) {
  ProgramOrder PO(K);
  StmtId Def = K.Values[V].Def;
  StmtId Best = None;
  unsigned BestDepth = 0;
  for (StmtId S : K.preorder()) {
    const hir::Stmt &St = K.Stmts[S];
    if (St.Kind != hir::StmtKind::Op)
      continue;
    bool Uses = false;
    for (ValueId U : St.Operands)
      Uses |= U != None && U < K.Values.size() && rootOf(K, U) == V;
    Uses |= St.Assigns && St.Result == V;
    if (!Uses)
      continue;
    unsigned Depth = 0;
    StmtId Innermost = None;
    for (StmtId A = St.Parent; A != None; A = K.Stmts[A].Parent)
      if (K.Stmts[A].Kind == hir::StmtKind::Loop &&
          (Def == None || !PO.contains(A, Def))) {
        if (Innermost == None)
          Innermost = A;
        ++Depth;
      }
    if (Innermost != None && Depth > BestDepth) {
      BestDepth = Depth;
      Best = Innermost;
    }
  }
  if (Best == None)
    return "none";
  std::string Out;
  for (ValueId I : K.Stmts[Best].Indices)
    Out += (Out.empty() ? "" : ",") + valueName(K, I);
  return Out;
}

} // namespace

KernelCost analyzeCost(const hir::Kernel &K,
                       const targets::MergedTarget &Target,
                       const Bindings &B) {
  KernelCost C;
  C.Kernel = K.Name;
  C.Target = Target.Doc ? Target.Doc->Id : K.Target;

  // Parameters whose extents stay symbolic.
  for (ValueId P : K.Parameters) {
    bool Symbolic = false;
    for (const std::optional<std::int64_t> &E : extentsOf(K, P, &B))
      Symbolic |= !E.has_value();
    if (Symbolic)
      C.Symbolic.push_back(valueName(K, P));
  }

  //===- Shared memory and registers --------------------------------------===//
  // Shared memory: every allocation lives as long as the CTA, so the peak is
  // their sum (exact when every allocation is static).
  C.Smem.Allocations = sharedAllocations(K);
  for (const SharedAllocation &A : C.Smem.Allocations) {
    if (std::optional<std::int64_t> Bytes = A.bytes())
      C.Smem.Peak += *Bytes;
    else
      C.Smem.P = Precision::LowerBound;
  }
  C.Smem.Capacity = intFact(Target, "cta.shared_memory.max");
  if (C.Smem.Capacity)
    C.Smem.Fits = C.Smem.Peak <= *C.Smem.Capacity;

  // Registers: the tensors' registers only (addresses, indices and the
  // instructions' temporaries come on top): a lower bound.
  std::optional<RegisterModel> Regs = registerModel(K);
  std::vector<ValueId> Undistributed;
  C.Registers.Undistributed = undistributedRegisters(K, &Undistributed);
  if (Regs) {
    C.Registers.Distributed = !Regs->Values.empty();
    for (const RegisterPeak &P : Regs->Peaks)
      if (P.Registers > C.Registers.PerThread) {
        C.Registers.PerThread = P.Registers;
        C.Registers.Mesh = P.Mesh;
        StmtId Scope = holderScope(K, Regs->Values[P.Starter].V);
        C.Registers.MeshSpelling =
            Scope != None ? K.Stmts[Scope].MeshSpelling : std::string();
      }
    C.Registers.PerCta = Regs->CtaRegisters;
  }
  C.Registers.PerCta += C.Registers.Undistributed;
  C.Registers.PerThreadMax = intFact(Target, "thread.registers.max");
  C.Registers.PerCtaMax = intFact(Target, "cta.registers.max");
  if (C.Registers.PerThreadMax || C.Registers.PerCtaMax)
    C.Registers.Fits =
        (!C.Registers.PerThreadMax ||
         C.Registers.PerThread <= *C.Registers.PerThreadMax) &&
        (!C.Registers.PerCtaMax || C.Registers.PerCta <= *C.Registers.PerCtaMax);

  //===- Waves -------------------------------------------------------------===//
  WaveReport &W = C.Waves;
  W.Loop = firstTileLoop(K);
  std::optional<TileGrid> Grid;
  if (W.Loop != None) {
    const hir::Stmt &Loop = K.Stmts[W.Loop];
    W.Range = Loop.Range;
    W.Kind = Loop.Loop;
    W.GroupM = Loop.GroupM;
    W.ColumnMajor = Loop.ColumnMajor;
    Grid = W.Grid = tileGrid(K, W.Loop, &B);
  }
  if (std::optional<std::int64_t> SMs = intFact(Target, "sm.count")) {
    W.Units = SMs;
  } else if (std::optional<std::int64_t> Cores = intFact(Target, "cpu.cores")) {
    W.Units = Cores;
    W.UnitName = "core";
    W.GridUnitName = "worker";
    W.Cpu = true;
  }
  occupancyLimits(K, Target, C, W);
  const std::optional<std::int64_t> CTAs = kernelCtas(K, Grid);
  const bool Persistent =
      W.Loop != None && W.Kind == hir::LoopKind::PersistentTiles;
  std::vector<std::vector<TileCoord>> Rounds;
  // A bound on the work of the round model (tiles enumerated).
  constexpr std::int64_t MaxTiles = std::int64_t(1) << 24;
  if (W.Loop != None) {
    const hir::Stmt &Loop = K.Stmts[W.Loop];
    const std::string PerTile = "one " + W.GridUnitName + " per tile";
    W.Kernel.What = Persistent ? "persistent" : PerTile;
    W.Other.What = Persistent ? PerTile : "persistent";
    if (Persistent) {
      const hir::Stmt &L = Loop;
      Result<std::int64_t> Size = L.LoopMesh.size();
      if (Size.ok() && staticProduct(L.LoopMesh.layout.shape))
        W.Kernel.CTAs = *Size;
      if (Grid)
        W.Other.CTAs = Grid->tiles();
    } else {
      W.Kernel.CTAs = CTAs;
    }
    distribute(W, W.Kernel);
    distribute(W, W.Other);
    if (!Persistent && W.Units && W.Kernel.CtasPerSm && *W.Kernel.CtasPerSm > 0) {
      // As persistent CTAs: as many as run at once, one wave.
      W.Other.CTAs = *W.Units * *W.Kernel.CtasPerSm;
      distribute(W, W.Other);
    }
    if (Grid && Grid->tiles() <= MaxTiles) {
      std::int64_t Running = Grid->CTAs;
      if (!Persistent && W.Units)
        Running = *W.Units * std::max<std::int64_t>(
                                 1, W.Kernel.CtasPerSm.value_or(1));
      Rounds = tileRounds(Loop, *Grid, Running);
    }
    // Tiles per CTA.
    if (Grid) {
      auto Spread = [&](Distribution &D) {
        if (!D.CTAs || *D.CTAs < 1)
          return;
        D.MaxTilesPerCta = ceilDiv(Grid->tiles(), *D.CTAs);
        D.MinTilesPerCta = Grid->tiles() / *D.CTAs;
      };
      Spread(W.Kernel);
      Spread(W.Other);
      if (Persistent && !Rounds.empty()) {
        // The scheduler's own counts (clusters may skip super-tiles).
        W.Kernel.MaxTilesPerCta = static_cast<std::int64_t>(Rounds.size());
        W.Kernel.MinTilesPerCta =
            static_cast<std::int64_t>(Rounds.back().size()) == *W.Kernel.CTAs
                ? W.Kernel.MaxTilesPerCta
                : *W.Kernel.MaxTilesPerCta - 1;
      }
    }
    // One tile's extents: the windows whose offsets follow m or n alone.
    ProgramOrder PO(K);
    for (StmtId S : K.preorder()) {
      if (!PO.contains(W.Loop, S) || K.Stmts[S].Kind != hir::StmtKind::Op)
        continue;
      for (ValueId V : K.Stmts[S].Operands) {
        if (V == None || V >= K.Values.size() || K.Values[V].TileOf == None)
          continue;
        const hir::Value &Win = K.Values[V];
        for (std::size_t D = 0; D < Win.TileOffsets.size() &&
                                D < Win.Type.WindowExtents.size();
             ++D) {
          // A unit leading mode (a batch's index, which follows the row
          // tile index too) is no extent of the tile.
          if (D + 2 < Win.Type.WindowExtents.size() &&
              Win.Type.WindowExtents[D] == 1)
            continue;
          std::set<ValueId> Deps;
          indicesOf(K, Win.TileOffsets[D], Deps);
          if (Deps.size() != 1)
            continue;
          // The tensor mode the window tiles, its extent as bound.
          std::optional<std::int64_t> Extent;
          const std::vector<std::optional<std::int64_t>> Extents =
              extentsOf(K, rootOf(K, Win.TileOf), &B);
          if (D < Extents.size())
            Extent = Extents[D];
          if (*Deps.begin() == Loop.Indices[0] && !W.TileM) {
            W.TileM = Win.Type.WindowExtents[D];
            W.ExtentM = Extent;
          }
          if (Loop.Indices.size() > 1 && *Deps.begin() == Loop.Indices[1] &&
              !W.TileN) {
            W.TileN = Win.Type.WindowExtents[D];
            W.ExtentN = Extent;
          }
        }
      }
    }
  } else if (CTAs) {
    W.Kernel.What = W.GridUnitName + "s";
    W.Kernel.CTAs = CTAs;
    distribute(W, W.Kernel);
  }

  //===- Compute and traffic ----------------------------------------------===//
  std::map<ValueId, TensorTraffic> Traffic;
  std::map<ValueId, double> WindowedReads; // inside the tile loop
  bool TrafficKnown = true, SmemKnown = true;
  double SmemRead = 0, SmemWrite = 0;
  ProgramOrder PO(K);
  C.Flop = 0;
  C.FlopP = Precision::Exact;
  for (StmtId S : K.preorder()) {
    const hir::Stmt &Op = K.Stmts[S];
    if (Op.Kind != hir::StmtKind::Op || Op.Op == hir::OpKind::Empty)
      continue;
    std::optional<std::int64_t> N = trips(K, S, B, CTAs);
    if (isContraction(Op.Access)) {
      ComputeOp Work;
      Work.Op = S;
      Work.Range = Op.CallRange.valid() ? Op.CallRange : Op.Range;
      Work.Name = Op.Sched && !Op.Sched->ContractId.empty()
                      ? Op.Sched->ContractId
                      : hir::opName(Op.Op).str();
      for (const hir::Access &A : Op.Access.Accesses)
        if (A.Kind == hir::AccessKind::Read && A.Operand != None) {
          Work.Input = K.Values[rootOf(K, A.Operand)].Type.Element;
          break;
        }
      // A multiply-add per trip on matrix units; one add or max per element
      // for a reduction in registers.
      Work.InRegisters = hir::isRegisterOp(K, Op);
      double PerTrip = Work.InRegisters ? 1 : 2;
      bool Static = true;
      const IntTuple &Dom = Op.Access.Domain;
      const unsigned Rank = Dom.is_leaf() ? 1 : static_cast<unsigned>(Dom.rank());
      for (unsigned D = 0; D < Rank; ++D) {
        std::optional<std::int64_t> E = domainExtent(Op.Access, D);
        Static &= E.has_value();
        Work.Domain.push_back(E.value_or(0));
        PerTrip *= static_cast<double>(E.value_or(0));
      }
      Work.Trips = N;
      if (N && Static) {
        Work.Flop = PerTrip * static_cast<double>(*N);
        if (std::optional<double> F = usefulFraction(K, S, B, W))
          Work.UsefulFlop = *Work.Flop * *F;
      }
      if (Work.Flop && C.Flop)
        *C.Flop += *Work.Flop;
      else
        C.Flop.reset();
      C.Compute.push_back(std::move(Work));
    }
    for (const hir::Access &A : Op.Access.Accesses) {
      if (A.Operand == None || A.Operand >= K.Values.size())
        continue;
      ValueId Root = rootOf(K, A.Operand);
      const hir::Value &R = K.Values[Root];
      if (R.Type.Where != Storage::gmem && R.Type.Where != Storage::smem)
        continue;
      std::optional<std::int64_t> E = accessElements(Op.Access, A);
      std::optional<double> Bytes;
      if (E && N)
        Bytes = static_cast<double>(*E) * bytes(R.Type.Element) *
                static_cast<double>(*N);
      if (R.Type.Where == Storage::smem) {
        if (!Bytes)
          SmemKnown = false;
        else if (A.Kind != hir::AccessKind::Write)
          SmemRead += *Bytes;
        if (Bytes && A.Kind != hir::AccessKind::Read)
          SmemWrite += *Bytes;
        continue;
      }
      auto [It, New] = Traffic.try_emplace(Root);
      TensorTraffic &T = It->second;
      if (New) {
        T.Tensor = Root;
        T.Name = valueName(K, Root);
        T.Where = R.Type.Where;
        T.ReadBytes = T.WriteBytes = 0.0;
      }
      if (!Bytes) {
        TrafficKnown = false;
        T.ReadBytes.reset();
        T.WriteBytes.reset();
        continue;
      }
      if (A.Kind != hir::AccessKind::Write && T.ReadBytes) {
        *T.ReadBytes += *Bytes;
        if (W.Loop != None && PO.contains(W.Loop, S) && !A.Offsets.empty())
          WindowedReads[Root] += *Bytes;
      }
      if (A.Kind != hir::AccessKind::Read && T.WriteBytes)
        *T.WriteBytes += *Bytes;
    }
  }
  if (!C.Flop)
    C.FlopP = Precision::Unknown;
  if (SmemKnown) {
    C.Memory.SmemRead = SmemRead;
    C.Memory.SmemWrite = SmemWrite;
  }

  //===- HBM and the reuse window -----------------------------------------===//
  MemoryReport &M = C.Memory;
  M.CacheFact = "memory.l2.capacity";
  M.CacheCapacity = intFact(Target, M.CacheFact);
  if (!M.CacheCapacity) {
    M.CacheFact = "cache.l3.capacity";
    M.CacheCapacity = intFact(Target, M.CacheFact);
  }
  std::map<ValueId, Panel> FirstWave;
  std::map<ValueId, double> PanelBytes;
  bool PanelsKnown = !Rounds.empty();
  for (std::size_t R = 0; R < Rounds.size() && PanelsKnown; ++R) {
    bool Unknown = false;
    std::map<ValueId, Panel> Panels =
        wavePanels(K, W.Loop, Rounds[R], &B, Unknown);
    PanelsKnown = !Unknown;
    for (const auto &[Root, P] : Panels)
      PanelBytes[Root] += static_cast<double>(P.Bytes);
    if (R == 0)
      FirstWave = std::move(Panels);
  }
  if (PanelsKnown && !FirstWave.empty()) {
    std::int64_t Window = 0;
    for (const auto &[Root, P] : FirstWave)
      Window += P.Bytes;
    M.ReuseWindow = Window;
    if (M.CacheCapacity) {
      M.ReuseFits = Window <= *M.CacheCapacity;
      // The share of the window the cache holds: the reads it serves fall
      // off as the window outgrows the cache, not at one byte past it.
      M.CacheHeld = Window > 0 ? std::min(1.0, static_cast<double>(
                                                   *M.CacheCapacity) /
                                                   static_cast<double>(Window))
                               : 1.0;
    }
  }
  if (TrafficKnown) {
    M.GmemRead = M.GmemWrite = 0.0;
    M.HbmReadIfFits = 0.0;
    M.Compulsory = 0.0;
    for (auto &[Root, T] : Traffic) {
      *M.GmemRead += *T.ReadBytes;
      *M.GmemWrite += *T.WriteBytes;
      // Reads through the tile loop's windows come from HBM once per round;
      // any other read is counted as it is issued.
      T.HbmReadBytes = *T.ReadBytes;
      if (PanelsKnown && PanelBytes.count(Root))
        T.HbmReadBytes = PanelBytes[Root] + *T.ReadBytes - WindowedReads[Root];
      *M.HbmReadIfFits += *T.HbmReadBytes;
      // The whole tensor's bytes, when every extent is bound.
      std::int64_t Whole = bytes(K.Values[Root].Type.Element);
      bool Bound = true;
      for (const std::optional<std::int64_t> &E : extentsOf(K, Root, &B)) {
        Bound = Bound && E.has_value();
        Whole *= E.value_or(1);
      }
      const std::optional<std::int64_t> All =
          Bound ? std::optional(Whole) : std::nullopt;
      if (All) {
        T.TensorBytes = static_cast<double>(*All);
        if (M.Compulsory)
          *M.Compulsory += static_cast<double>(*All);
      } else {
        M.Compulsory.reset();
      }
    }
    // A window that fits is read once per round; of one that does not,
    // the cache holds the share CacheHeld and the reads of the rest go to
    // HBM (every read when nothing is known of the window).
    const double Held = M.CacheHeld.value_or(0.0);
    M.HbmRead = *M.HbmReadIfFits + (1.0 - Held) * (*M.GmemRead - *M.HbmReadIfFits);
    M.Hbm = *M.HbmRead + *M.GmemWrite;
    // Whether or not the window fits, rounds after the first may find data
    // the previous round left in the cache, and edge tiles count whole.
    M.HbmP = Precision::UpperBound;
  }
  for (auto &[Root, T] : Traffic)
    M.Tensors.push_back(T);

  //===- Buffers -----------------------------------------------------------===//
  // gmem tensors, in parameter order.
  std::string LoopSpace =
      W.Loop != None ? spaceOf(K.Stmts[W.Loop].LoopMesh) : "cta";
  for (ValueId P : K.Parameters) {
    auto TIt = Traffic.find(P);
    if (TIt == Traffic.end())
      continue;
    BufferReport Buf;
    Buf.V = P;
    Buf.Name = valueName(K, P);
    Buf.Where = Storage::gmem;
    Buf.Space = LoopSpace;
    Buf.Level = M.CacheFact == "memory.l2.capacity" ? "l2" : "l3";
    Buf.Capacity = M.CacheCapacity;
    auto FIt = FirstWave.find(P);
    if (FIt != FirstWave.end() && PanelsKnown) {
      // Reused across the wave's tiles: its panels must stay in the cache
      // together with every other tensor's panels of the wave.
      Buf.Holds = FIt->second.Bytes;
      Buf.Reuse = M.ReuseWindow;
      Buf.Fits = M.ReuseFits;
      Buf.P = Precision::UpperBound;
      std::set<ValueId> Deps;
      const hir::Value &Win = K.Values[FIt->second.Window];
      for (ExprId E : Win.TileOffsets)
        indicesOf(K, E, Deps);
      // The loops around the op that reads the window.
      for (StmtId S : K.preorder())
        if (K.Stmts[S].Kind == hir::StmtKind::Op &&
            std::count(K.Stmts[S].Operands.begin(), K.Stmts[S].Operands.end(),
                       FIt->second.Window)) {
          Buf.Time = timeLoops(K, S, Deps, W.Loop);
          break;
        }
    } else if (TIt->second.ReadBytes && *TIt->second.ReadBytes == 0 &&
               TIt->second.WriteBytes) {
      // Only written: each tile's window once; nothing to reuse.
      Buf.Reused = false;
      Buf.P = Precision::Exact;
      if (!Rounds.empty()) {
        std::int64_t PerTile = 0;
        for (StmtId S : K.preorder()) {
          const hir::Stmt &Op = K.Stmts[S];
          if (Op.Kind != hir::StmtKind::Op || !PO.contains(W.Loop, S))
            continue;
          for (const hir::Access &A : Op.Access.Accesses)
            if (A.Operand == P && A.Kind == hir::AccessKind::Write)
              if (std::optional<std::int64_t> E = accessElements(Op.Access, A))
                PerTile = std::max(PerTile,
                                   *E * bytes(K.Values[P].Type.Element));
        }
        Buf.Holds = PerTile * static_cast<std::int64_t>(Rounds.front().size());
      } else {
        Buf.P = Precision::Unknown;
      }
    } else {
      Buf.P = Precision::Unknown;
    }
    C.Buffers.push_back(std::move(Buf));
  }
  // Shared memory: every allocation lives as long as the CTA; its reuse
  // window is the CTA's whole shared memory.
  for (const SharedAllocation &A : C.Smem.Allocations) {
    BufferReport Buf;
    Buf.V = A.V;
    Buf.Name = A.Name;
    Buf.Where = Storage::smem;
    Buf.Holds = A.bytes();
    Buf.Time = refillLoop(K, A.V);
    Buf.Space = "cta";
    Buf.Reuse = C.Smem.Peak;
    Buf.Level = "smem";
    Buf.Capacity = C.Smem.Capacity;
    Buf.Fits = C.Smem.Fits;
    Buf.P = C.Smem.P == Precision::Exact && A.bytes() ? Precision::Exact
                                                      : Precision::LowerBound;
    C.Buffers.push_back(std::move(Buf));
  }
  // Registers: a thread holds its part of each tensor for the tensor's live
  // range, next to every other tensor live then (its mesh's peak).
  if (Regs)
    for (const RegisterValue &R : Regs->Values) {
      BufferReport Buf;
      Buf.V = R.V;
      Buf.Name = valueName(K, R.V);
      Buf.Where = Storage::rmem;
      std::int64_t Holders = std::count(R.Units.begin(), R.Units.end(), true);
      Buf.Holds = R.Registers * 4 * Holders;
      Buf.HoldsRegisters = R.Registers;
      Buf.Time = liveAcross(K, R.V);
      StmtId Scope = holderScope(K, R.V);
      Buf.Space = Scope != None && !K.Stmts[Scope].MeshSpelling.empty()
                      ? "thread." + K.Stmts[Scope].MeshSpelling
                      : R.Mesh;
      for (const RegisterPeak &P : Regs->Peaks)
        if (P.Mesh == R.Mesh)
          Buf.Reuse = P.Registers;
      Buf.Level = "registers";
      Buf.Capacity = C.Registers.PerThreadMax;
      if (Buf.Reuse && Buf.Capacity)
        Buf.Fits = *Buf.Reuse <= *Buf.Capacity;
      Buf.P = Precision::LowerBound;
      C.Buffers.push_back(std::move(Buf));
    }
  for (ValueId V : Undistributed) {
    BufferReport Buf;
    Buf.V = V;
    Buf.Name = valueName(K, V);
    Buf.Where = Storage::rmem;
    const hir::Value &Val = K.Values[V];
    if (std::optional<std::int64_t> E = staticProduct(Val.Type.Layout.layout.shape))
      Buf.Holds = *E * bytes(Val.Type.Element);
    Buf.Time = liveAcross(K, V);
    Buf.Space = "cta (not distributed over threads)";
    Buf.Level = "registers";
    Buf.P = Precision::Unknown;
    C.Buffers.push_back(std::move(Buf));
  }

  //===- Roofline ----------------------------------------------------------===//
  // The bound no schedule beats: the useful flop (tile padding is the
  // schedule's choice) at the peak, each tensor once at the bandwidth.
  RooflineReport &RL = C.Roofline;
  std::optional<double> Useful = C.Compute.empty() ? std::nullopt
                                                   : std::optional(0.0);
  for (const ComputeOp &Op : C.Compute)
    Useful = Useful && Op.UsefulFlop ? std::optional(*Useful + *Op.UsefulFlop)
                                     : std::nullopt;
  RL.Flop = Useful ? Useful : C.Flop;
  if (!C.Compute.empty())
    std::tie(RL.PeakFlops, RL.PeakFact) = peakFlops(
        Target, C.Compute.front().Input, C.Compute.front().InRegisters);
  RL.BandwidthFact = "memory.hbm.bandwidth";
  RL.Bandwidth = numberFact(Target, RL.BandwidthFact);
  if (!RL.Bandwidth) {
    RL.BandwidthFact = "memory.dram.bandwidth";
    RL.Bandwidth = numberFact(Target, RL.BandwidthFact);
  }
  RL.HbmBytes = M.Compulsory;
  if (RL.Flop && (*RL.Flop == 0 || RL.PeakFlops))
    RL.ComputeSeconds = *RL.Flop == 0 ? 0.0 : *RL.Flop / *RL.PeakFlops;
  if (RL.HbmBytes && RL.Bandwidth)
    RL.MemorySeconds = *RL.HbmBytes / *RL.Bandwidth;
  if (RL.ComputeSeconds && RL.MemorySeconds) {
    RL.Seconds = std::max(*RL.ComputeSeconds, *RL.MemorySeconds);
    RL.Bound = *RL.ComputeSeconds >= *RL.MemorySeconds ? "compute" : "memory";
    if (*RL.Seconds > 0)
      RL.Tflops = *RL.Flop / *RL.Seconds / 1e12;
    RL.P = Precision::LowerBound;
  }

  //===- Estimate ----------------------------------------------------------===//
  // This schedule: every SM computes its tiles at its share of the sustained
  // rate, so the kernel takes as long as its busiest SM; SMs without a tile
  // add nothing. Persistent CTAs take the scheduler's tiles (MaxTilesPerCta)
  // and an SM runs ceil(CTAs / SMs) of them; a grid's tiles spread over the
  // SMs, ceil(tiles / SMs) on the busiest. The HBM bytes are the L2 model's.
  EstimateReport &E = C.Estimate;
  E.Units = W.Units;
  E.Flop = C.Flop;
  E.UsefulFlop = Useful;
  if (!C.Compute.empty()) {
    const std::string Sustained =
        "tensor_core.sustained." + rateName(C.Compute.front().Input);
    if (std::optional<double> V = numberFact(Target, Sustained)) {
      E.Rate = V;
      E.RateFact = Sustained;
    } else {
      E.Rate = RL.PeakFlops;
      E.RateFact = RL.PeakFact;
    }
  }
  std::optional<std::int64_t> WorkCtas = W.Kernel.CTAs ? W.Kernel.CTAs : CTAs;
  if (Grid && W.Loop != None) {
    E.Tiles = Grid->tiles();
    if (W.Units && *W.Units > 0) {
      if (Persistent && W.Kernel.CTAs && W.Kernel.MaxTilesPerCta) {
        E.BusiestTiles = ceilDiv(*W.Kernel.CTAs, *W.Units) *
                         *W.Kernel.MaxTilesPerCta;
        E.BusyUnits = std::min(*W.Units, std::min(*W.Kernel.CTAs, *E.Tiles));
      } else if (!Persistent) {
        E.BusiestTiles = ceilDiv(*E.Tiles, *W.Units);
        E.BusyUnits = std::min(*W.Units, *E.Tiles);
      }
    }
  } else if (W.Loop == None && WorkCtas && W.Units && *W.Units > 0) {
    // No tile loop: each CTA is one unit of work.
    E.Tiles = WorkCtas;
    E.BusiestTiles = ceilDiv(*WorkCtas, *W.Units);
    E.BusyUnits = std::min(*W.Units, *WorkCtas);
  }
  if (E.Flop && E.Tiles && *E.Tiles > 0)
    E.TileFlop = *E.Flop / static_cast<double>(*E.Tiles);
  if (E.TileFlop && E.BusiestTiles && E.Rate && *E.Rate > 0 && E.Units)
    E.ComputeSeconds = *E.TileFlop * static_cast<double>(*E.BusiestTiles) /
                       (*E.Rate / static_cast<double>(*E.Units));
  // Between two steps of the main loop the tensor cores of an SM wait: the
  // consumers drain their MMAs, release the stage, wait for the next one and
  // issue again. A fixed time per step, so smaller steps (a 128 x 128 tile
  // against 128 x 256) pay it more often per flop. A tile's steps are the
  // executions of its most executed contraction on a matrix unit (a
  // reduction in registers has no pipeline steps).
  std::optional<std::int64_t> Steps;
  for (const ComputeOp &Op : C.Compute)
    if (Op.Trips && !Op.InRegisters)
      Steps = std::max(Steps.value_or(0), *Op.Trips);
  E.StepOverhead = numberFact(Target, "pipeline.step_overhead");
  if (E.ComputeSeconds && E.StepOverhead && Steps && E.Tiles && *E.Tiles > 0 &&
      E.BusiestTiles) {
    E.BusiestSteps = ceilDiv(*Steps, *E.Tiles) * *E.BusiestTiles;
    E.StepSeconds = static_cast<double>(*E.BusiestSteps) * *E.StepOverhead;
    *E.ComputeSeconds += *E.StepSeconds;
  }
  E.HbmBytes = M.Hbm;
  E.Bandwidth = RL.Bandwidth;
  if (E.HbmBytes && E.Bandwidth && *E.Bandwidth > 0)
    E.MemorySeconds = *E.HbmBytes / *E.Bandwidth;
  if (E.ComputeSeconds && E.MemorySeconds) {
    E.Seconds = std::max(*E.ComputeSeconds, *E.MemorySeconds);
    E.Bound = *E.ComputeSeconds >= *E.MemorySeconds ? "compute" : "memory";
    if (*E.Seconds > 0 && E.UsefulFlop)
      E.Tflops = *E.UsefulFlop / *E.Seconds / 1e12;
  }
  return C;
}

} // namespace tf::analysis
