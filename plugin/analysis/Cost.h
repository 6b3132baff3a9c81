//===- plugin/analysis/Cost.h - What a kernel costs on a target -*- C++ -*-===//
//
// The model behind `tf analyze`: for one checked kernel, its target's facts
// and the run-time extents of its tensor parameters, how many waves its CTAs
// take (and what a persistent grid, or one CTA per tile, would change), the
// work of its contractions, the bytes it moves through each memory level,
// its shared-memory and register peaks, the reuse window of each buffer, the
// roofline no schedule beats and this schedule's estimated time (its
// busiest SM at the sustained rate). Every number comes with a Precision
// saying what kind of number it is. The formulas are stated where each is
// computed (Cost.cpp) and, for users, in docs/analyze.md.
//
// The capacity models are Capacity.h's, shared with the compile-time
// capacity warnings.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_COST_H
#define TF_PLUGIN_ANALYSIS_COST_H

#include "analysis/Capacity.h"
#include "hir/HIR.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::analysis {

/// What kind of number a model gives.
enum class Precision {
  Exact,      ///< the model's value follows from facts and decisions alone
  UpperBound, ///< the true value is at most this
  LowerBound, ///< the true value is at least this
  Estimate,   ///< a model's prediction of the value: no bound either way
  Unknown,    ///< an input is missing (a run-time extent, a fact)
};
llvm::StringRef precisionName(Precision P);

/// One limit on the CTAs an SM (a core) holds at once.
struct OccupancyLimit {
  /// "shared memory", "registers", "threads", "CTA slots".
  std::string Resource;
  /// CTAs per SM this resource allows; none when unknown.
  std::optional<std::int64_t> CtasPerSm;
  Precision P = Precision::Unknown;
  /// How it follows: "208 KiB of 228 KiB per SM".
  std::string Why;
};

/// How one way of distributing the tiles over CTAs runs.
struct Distribution {
  /// "persistent" (a fixed number of CTAs walks the tiles) or "one CTA per
  /// tile".
  std::string What;
  std::optional<std::int64_t> CTAs;
  /// At most this many CTAs per SM run at once (the smallest limit).
  std::optional<std::int64_t> CtasPerSm;
  Precision CtasPerSmP = Precision::Unknown;
  std::string LimitedBy;
  /// ceil(CTAs / (SMs x CtasPerSm)).
  std::optional<std::int64_t> Waves;
  Precision WavesP = Precision::Unknown;
  /// ceil(CTAs / SMs): waves when one CTA per SM runs at once.
  std::optional<std::int64_t> WavesAtOnePerSm;
  /// Tiles each CTA computes (equal for one CTA per tile).
  std::optional<std::int64_t> MinTilesPerCta, MaxTilesPerCta;
};

struct WaveReport {
  /// The tile loop (persistent_tiles / grid_tiles); None when the kernel
  /// has none.
  hir::StmtId Loop = hir::None;
  hir::SourceRange Range;
  hir::LoopKind Kind = hir::LoopKind::GridTiles;
  std::int64_t GroupM = 1;
  bool ColumnMajor = false;
  /// The grid of tiles; none while an extent it depends on is symbolic.
  std::optional<TileGrid> Grid;
  /// One tile's extents along M and N (from the windows), when known.
  std::optional<std::int64_t> TileM, TileN;
  /// The extents the tiles cover along M and N: those of the tensor modes
  /// the windows of TileM and TileN tile (bound by --shape), when known.
  std::optional<std::int64_t> ExtentM, ExtentN;
  /// The target's processors: `sm.count` SMs (or `cpu.cores` cores).
  std::optional<std::int64_t> Units;
  std::string UnitName = "SM";
  /// A CPU target (`cpu.cores`, no SMs): no shared memory or register
  /// file to share out among a unit's threads.
  bool Cpu = false;
  /// What runs a tile loop's body on one unit: a CTA on a GPU, a worker
  /// (a thread pinned to a core) on a CPU.
  std::string GridUnitName = "CTA";
  std::vector<OccupancyLimit> Limits;
  /// The kernel as written, then the other way (one CTA per tile for a
  /// persistent kernel, persistent CTAs for a grid).
  Distribution Kernel, Other;
};

/// The work of one contraction (tf::matmul, a tiled MMA).
struct ComputeOp {
  hir::StmtId Op = hir::None;
  hir::SourceRange Range;
  std::string Name; ///< "matmul", "nv.sm90.Wgmma"
  DType Input = DType::bf16;
  /// The iteration domain of one execution (M, N, K of a tile step).
  std::vector<std::int64_t> Domain;
  /// Executions over the whole kernel (all CTAs); none when symbolic.
  std::optional<std::int64_t> Trips;
  /// A reduction without an atom, computed in registers on the cores (f32)
  /// rather than by a matrix unit.
  bool InRegisters = false;
  /// 2 x product(Domain) x Trips (1 x for a reduction in registers).
  std::optional<double> Flop;
  /// The part of Flop inside the tensors' extents: Flop times, per tiled
  /// dimension, extent / (tiles x tile extent); the rest is tile padding.
  std::optional<double> UsefulFlop;
};

/// Bytes an op's accesses move to and from one tensor.
struct TensorTraffic {
  hir::ValueId Tensor = hir::None;
  std::string Name;
  Storage Where = Storage::gmem;
  /// Over the whole kernel; none when symbolic.
  std::optional<double> ReadBytes, WriteBytes;
  /// gmem: the bytes the L2 model reads from HBM when the reuse window fits
  /// (the wave panels of every round) -- ReadBytes when not read through a
  /// tile loop's windows.
  std::optional<double> HbmReadBytes;
  /// gmem: the whole tensor's bytes (each element once).
  std::optional<double> TensorBytes;
};

struct MemoryReport {
  std::vector<TensorTraffic> Tensors;
  /// gmem bytes the CTAs ask for (the L2's traffic to the SMs).
  std::optional<double> GmemRead, GmemWrite;
  /// The wave's reuse window (bytes) against the last-level cache.
  std::optional<std::int64_t> ReuseWindow;
  std::optional<std::int64_t> CacheCapacity;
  std::string CacheFact;
  std::optional<bool> ReuseFits;
  /// The fraction of the reuse window the cache holds: min(1, capacity /
  /// window).
  std::optional<double> CacheHeld;
  /// HBM bytes: reads as the L2 model gives them -- HbmReadIfFits, plus the
  /// part (1 - CacheHeld) of the reads the window would have served
  /// (GmemRead - HbmReadIfFits) -- plus GmemWrite.
  std::optional<double> HbmReadIfFits, HbmRead, Hbm;
  Precision HbmP = Precision::Unknown;
  /// Each gmem tensor once: the least any schedule moves.
  std::optional<double> Compulsory;
  /// Shared-memory traffic (all CTAs).
  std::optional<double> SmemRead, SmemWrite;
};

struct SharedMemoryReport {
  std::vector<SharedAllocation> Allocations;
  std::int64_t Peak = 0;
  std::optional<std::int64_t> Capacity;
  std::optional<bool> Fits;
  Precision P = Precision::Exact;
};

struct RegisterReport {
  /// False when the kernel has no thread level: register tensors sit on the
  /// CTA mesh undistributed (Undistributed counts them).
  bool Distributed = false;
  /// The most registers one thread holds, and on which mesh.
  std::int64_t PerThread = 0;
  /// That thread's mesh as printed, and as the mesh scope spells it
  /// ("compute"; empty when the value has no scope).
  std::string Mesh, MeshSpelling;
  std::optional<std::int64_t> PerThreadMax;
  /// All threads of a CTA, each at its own peak (warpgroups sized by
  /// setmaxnreg), plus the undistributed tensors.
  std::int64_t PerCta = 0;
  std::optional<std::int64_t> PerCtaMax;
  std::int64_t Undistributed = 0;
  std::optional<bool> Fits;
  Precision P = Precision::LowerBound;
};

/// One buffer's reuse window.
struct BufferReport {
  hir::ValueId V = hir::None;
  std::string Name;
  Storage Where = Storage::gmem;
  /// What the buffer holds while it is reused: a gmem tensor's panels in
  /// one wave, a smem allocation's bytes, a register tensor's bytes per CTA.
  std::optional<std::int64_t> Holds;
  /// Registers per thread (register tensors).
  std::optional<std::int64_t> HoldsRegisters;
  /// The loops across whose iterations one unit reuses it ("k"), or "none".
  std::string Time = "none";
  /// The units that share it: "cta.persistent", "cta", a thread mesh.
  std::string Space;
  /// What must stay resident for the reuse: bytes (gmem, smem) or registers
  /// per thread (rmem); none: not reused (written once) or unknown.
  std::optional<std::int64_t> Reuse;
  bool Reused = true;
  std::optional<std::int64_t> Capacity;
  /// "l2" / "l3", "smem", "registers".
  std::string Level;
  std::optional<bool> Fits;
  Precision P = Precision::Unknown;
};

/// The bound no schedule beats: the useful flop at the peak rate, each
/// tensor moved once (Compulsory) at the HBM bandwidth.
struct RooflineReport {
  std::optional<double> Flop;
  std::optional<double> PeakFlops;
  std::string PeakFact;
  std::optional<double> Bandwidth;
  std::string BandwidthFact;
  std::optional<double> HbmBytes;
  std::optional<double> ComputeSeconds, MemorySeconds, Seconds;
  std::optional<double> Tflops;
  /// "compute" or "memory".
  std::string Bound;
  /// Of Seconds (TFLOP/s has the opposite bound).
  Precision P = Precision::Unknown;
};

/// This schedule's predicted time (docs/analyze.md, "The estimate"): the
/// busiest SM's tiles at the device's sustained per-SM rate plus the fixed
/// cost of each of its main-loop steps, against the HBM bytes of the L2
/// model.
struct EstimateReport {
  /// The rate: `tensor_core.sustained.<dtype>` (measured under back-to-back
  /// launches), else the peak of the roofline.
  std::optional<double> Rate;
  std::string RateFact;
  std::optional<std::int64_t> Units;
  /// Per tile (or per CTA without a tile loop): the executed flop.
  std::optional<double> TileFlop;
  std::optional<std::int64_t> Tiles;
  /// The tiles the busiest SM computes, and the SMs with any tile.
  std::optional<std::int64_t> BusiestTiles, BusyUnits;
  /// The main-loop steps (executions of the contraction) of the busiest SM,
  /// each costing StepOverhead (`pipeline.step_overhead`) beyond its flop;
  /// StepSeconds = BusiestSteps x StepOverhead, part of ComputeSeconds.
  std::optional<std::int64_t> BusiestSteps;
  std::optional<double> StepOverhead, StepSeconds;
  /// Executed (tile padding included) and useful flop.
  std::optional<double> Flop, UsefulFlop;
  std::optional<double> HbmBytes, Bandwidth;
  std::optional<double> ComputeSeconds, MemorySeconds, Seconds;
  /// Useful flop / Seconds.
  std::optional<double> Tflops;
  std::string Bound;
};

struct KernelCost {
  std::string Kernel;
  std::string Target;
  /// Parameters with run-time extents the bindings did not give.
  std::vector<std::string> Symbolic;
  WaveReport Waves;
  std::vector<ComputeOp> Compute;
  std::optional<double> Flop;
  Precision FlopP = Precision::Unknown;
  MemoryReport Memory;
  SharedMemoryReport Smem;
  RegisterReport Registers;
  std::vector<BufferReport> Buffers;
  RooflineReport Roofline;
  EstimateReport Estimate;
};

/// The cost of kernel \p K on \p Target with the run-time extents \p B.
/// @pre infer(K) has run.
KernelCost analyzeCost(const hir::Kernel &K,
                       const targets::MergedTarget &Target,
                       const Bindings &B);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_COST_H
