//===- plugin/analysis/Capacity.h - The capacity models -----------*- C++ -*-===//
//
// The models behind checkCapacity (Capacity.cpp, warnings at compile time)
// and `tf analyze` (Cost.cpp, a report with the run-time shape): what a
// kernel's shared-memory allocations take, which register tensors each
// thread holds and for how long, and which panels of its gmem tensors the
// tiles of one wave read. Capacity.cpp's file comment states the models;
// docs/analyze.md states them for users. Both consumers call these
// functions, so a warning and a report never disagree.
//
// Extents that are known at run time only can be supplied as Bindings; with
// none, the models see only compile-time constants.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_CAPACITY_H
#define TF_PLUGIN_ANALYSIS_CAPACITY_H

#include "hir/HIR.h"

#include "tf/scheduler/tile.hpp"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::analysis {

/// Run-time values: the extents of tensor parameters (one per top-level
/// mode) and the values of index values (loop indices).
struct Bindings {
  std::map<hir::ValueId, std::vector<std::int64_t>> Extents;
  std::map<hir::ValueId, std::int64_t> Indices;
};

/// An integer fact of the target, if it has one.
std::optional<std::int64_t> intFact(const targets::MergedTarget &T,
                                    llvm::StringRef Key);
/// A numeric fact (integer or float) of the target, if it has one.
std::optional<double> numberFact(const targets::MergedTarget &T,
                                 llvm::StringRef Key);

/// The product of the leaves of \p T, when all are compile-time constants.
std::optional<std::int64_t> staticProduct(const IntTuple &T);

/// The extents of \p V's top-level modes (a window's extents for a tile):
/// static ones from its type, dynamic ones from \p B (its root parameter's
/// binding); none where neither knows.
std::vector<std::optional<std::int64_t>>
extentsOf(const hir::Kernel &K, hir::ValueId V, const Bindings *B = nullptr);

/// The value of \p E, following index values to their definitions and
/// reading run-time extents and loop indices from \p B; none when some part
/// is unknown.
std::optional<std::int64_t> evaluate(const hir::Kernel &K, hir::ExprId E,
                                     const Bindings *B = nullptr);

/// The loop indices \p E depends on, through index values' definitions.
void indicesOf(const hir::Kernel &K, hir::ExprId E,
               std::set<hir::ValueId> &Out);

/// Positions of statements in program order and the last position inside
/// each statement's subtree.
struct ProgramOrder {
  std::vector<unsigned> Pos, End;
  explicit ProgramOrder(const hir::Kernel &K);
  bool contains(hir::StmtId Outer, hir::StmtId Inner) const {
    return Pos[Outer] <= Pos[Inner] && Pos[Inner] <= End[Outer];
  }
};

//===- Shared memory ------------------------------------------------------===//

/// Bytes of storage a tensor of type \p T needs: its layout's cosize (plus
/// offset) times the element size, rounded up to the swizzle's span; none
/// when an extent, a stride or the offset is not a compile-time constant.
std::optional<std::int64_t> storageBytes(const hir::TensorType &T);

/// One shared-memory allocation of a CTA: a ring or a buffer.
struct SharedAllocation {
  hir::ValueId V = hir::None;
  std::string Name;
  /// 0 for a buffer.
  int Stages = 0;
  /// One slot's (a buffer's) bytes; none when its extents are dynamic.
  std::optional<std::int64_t> SlotBytes;

  std::optional<std::int64_t> bytes() const {
    if (!SlotBytes)
      return std::nullopt;
    return (Stages > 0 ? Stages : 1) * *SlotBytes;
  }
};

/// The kernel's shared-memory allocations, in value order: rings and buffers
/// from tf::empty / tf::zeros or declarations (not views).
std::vector<SharedAllocation> sharedAllocations(const hir::Kernel &K);

//===- Registers ----------------------------------------------------------===//

/// A register tensor a thread-level mesh holds and what it costs each thread.
struct RegisterValue {
  hir::ValueId V = hir::None;
  std::int64_t Elements = 0;  ///< per thread
  std::int64_t Registers = 0; ///< 32-bit, per thread
  /// Live from program point Start to Last (ProgramOrder positions).
  unsigned Start = 0, Last = 0;
  std::vector<bool> Units; ///< the threads holding it
  std::string Mesh;        ///< the thread mesh holding it, as printed
};

/// The peak of one thread mesh: the most registers one of its threads holds
/// at one program point, and the values live there.
struct RegisterPeak {
  std::string Mesh;
  std::int64_t Registers = 0;
  unsigned At = 0;
  /// Indices into RegisterModel::Values: the value starting at the peak and
  /// the values the peak thread holds there.
  unsigned Starter = 0;
  std::vector<unsigned> Live;
};

struct RegisterModel {
  /// The threads of a CTA (the innermost topology's extent).
  std::int64_t Threads = 1;
  std::vector<RegisterValue> Values;
  /// One per thread mesh holding a value, in order of first value.
  std::vector<RegisterPeak> Peaks;
  /// The registers of a CTA when each thread has its own peak's worth (as
  /// warp-specialized kernels size each warpgroup with setmaxnreg): the sum
  /// over threads of each thread's peak.
  std::int64_t CtaRegisters = 0;
};

/// The register tensors each thread holds, their live ranges and the peaks
/// (Capacity.cpp's file comment); none when the kernel has no thread level
/// (one topology only).
std::optional<RegisterModel> registerModel(const hir::Kernel &K);

/// Register tensors no thread mesh holds yet (they sit on the CTA mesh,
/// undistributed): the most 32-bit registers their live values take at
/// once, what a CTA needs at least to hold them. \p Values gets the
/// tensors.
std::int64_t undistributedRegisters(const hir::Kernel &K,
                                    std::vector<hir::ValueId> *Values = nullptr);

//===- L2 reuse windows ---------------------------------------------------===//

/// A persistent_tiles / grid_tiles loop's grid of tiles.
struct TileGrid {
  hir::StmtId Loop = hir::None;
  std::int64_t GM = 0, GN = 0;
  /// The CTAs of the loop's mesh; for a mesh of run-time size (grid_tiles:
  /// one CTA per tile), GM * GN.
  std::int64_t CTAs = 0;
  /// The mesh's size is a compile-time constant.
  bool StaticMesh = false;

  std::int64_t tiles() const { return GM * GN; }
};

/// The grid of tile loop \p L, when its bounds are known (with \p B).
std::optional<TileGrid> tileGrid(const hir::Kernel &K, hir::StmtId L,
                                 const Bindings *B = nullptr);

/// The tiles of \p G in rounds: round r holds the r-th tile of every
/// persistent CTA (persistent_tiles), or tile ids [r * Running, (r + 1) *
/// Running) (grid_tiles, where Running CTAs run at once), in the loop's
/// order. \p Limit stops after that many rounds (0: all).
std::vector<std::vector<TileCoord>> tileRounds(const hir::Stmt &Loop,
                                               const TileGrid &G,
                                               std::int64_t Running,
                                               std::int64_t Limit = 0);

/// One gmem tensor's share of a wave's window.
struct Panel {
  hir::ValueId Root = hir::None;
  hir::ValueId Window = hir::None;
  std::int64_t Count = 0;           ///< panels in the wave
  std::vector<std::int64_t> Extent; ///< of one panel, per dimension
  std::int64_t Bytes = 0;           ///< all of them
  const char *Per = "";
};

/// The panels of the gmem tensors read through tile windows inside tile loop
/// \p L that the tiles of \p Wave read (Capacity.cpp's file comment), keyed
/// by tensor; \p Unknown is set when a window cannot be measured.
std::map<hir::ValueId, Panel> wavePanels(const hir::Kernel &K, hir::StmtId L,
                                         const std::vector<TileCoord> &Wave,
                                         const Bindings *B, bool &Unknown);

/// Whether statement \p S reads operand \p V (its \p OperandIndex-th).
bool readsOperand(const hir::Kernel &K, const hir::Stmt &S, hir::ValueId V,
                  std::size_t OperandIndex);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_CAPACITY_H
