//===- plugin/lower/LIR.h - tf's lowered form of a kernel -------*- C++ -*-===//
//
// The LIR is a kernel after `tf finalize` (docs/finalize.md): every decision
// of the HIR turned into what a backend emits one for one. What the HIR
// leaves implicit is explicit here:
//
//   - the launch shape: the grid (a fixed CTA count for persistent_tiles,
//     one CTA per tile as an index expression of the run-time extents for
//     grid_tiles), the threads of a CTA and the dynamic shared memory;
//   - the shared-memory map: every ring stage and buffer as a tensor view at
//     a fixed byte offset (offset, element type, storage, layout, shape),
//     every mbarrier as an 8-byte object with its name;
//   - the pipelines: per ring a `full` and an `empty` barrier per stage with
//     their arrival counts and expected transaction bytes, and the iteration
//     clock that producer and consumer both index slots and phases with;
//   - the roles: each mesh scope as a branch over the thread range its mesh
//     covers, with the tile loops and instructions it runs.
//
// The LIR holds no Clang type and no pointer into the HIR but value ids and
// source ranges (for messages); Lower.cpp builds it, Verify.cpp checks it,
// Printer.cpp prints it, and the CUDA backend walks it.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_LIR_H
#define TF_PLUGIN_LOWER_LIR_H

#include "hir/HIR.h"

#include "tf/dtype.hpp"
#include "tf/layout/swizzle.hpp"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tf::lower {

using ExprId = unsigned;
using InstId = unsigned;
using RegionId = unsigned;
using BarrierId = unsigned;
inline constexpr unsigned None = ~0u;

//===- Index expressions ---------------------------------------------------===//

/// Integer expressions of the lowered kernel: loop variables, CTA and thread
/// indices, kernel parameters' run-time extents and arithmetic on them.
enum class ExprKind : std::uint8_t {
  Constant, ///< Value
  Var,      ///< Name: a loop variable, a let, `cta.x`
  Extent,   ///< extent Dim of kernel parameter Param (by name)
  Add,
  Sub,
  Mul,
  Div,     ///< floor division of non-negative values
  CeilDiv,
  Mod,
  Min,
  Max,
  Xor,     ///< bitwise, for phase parities
  And,     ///< bitwise
};

struct Expr {
  ExprKind Kind = ExprKind::Constant;
  std::int64_t Value = 0;
  std::string Name;
  unsigned Dim = 0;
  ExprId Lhs = None, Rhs = None;
};

//===- Shared memory -------------------------------------------------------===//

enum class RegionKind : std::uint8_t {
  RingStage, ///< slot Stage of a ring
  Buffer,    ///< a buffer (tf::empty / tf::zeros in shared memory)
  Barrier,   ///< one mbarrier (8 bytes)
};

/// One region of the CTA's dynamic shared memory.
struct Region {
  RegionKind Kind = RegionKind::Buffer;
  /// `lhs_ring[1]`, `staged_tile`, `lhs_ring.full[0]`.
  std::string Name;
  std::int64_t Offset = 0, Bytes = 0, Align = 0;
  /// Why Align: "TMA box, 128-byte swizzle period", "mbarrier".
  std::string AlignReason;
  // Views (stages and buffers): the HIR value and its tensor type.
  hir::ValueId Value = hir::None;
  int Stage = 0;
  DType Element = DType::f32;
  /// The layout as written in the type (swizzle included) and the shape.
  std::string Layout;
  std::vector<std::int64_t> Shape;
};

/// One array of mbarriers (a ring's `full` or `empty`, a buffer's handoff):
/// Count objects, Regions[i] is object i.
struct Barrier {
  std::string Name;
  std::vector<RegionId> Regions;
  /// Objects per array: a ring's stages, 1 for a buffer.
  int Count = 1;
  /// Arrivals that complete a phase (mbarrier.init's count).
  std::int64_t Arrivals = 0;
  /// Bytes of asynchronous transactions each phase expects (0: none).
  std::int64_t TxBytes = 0;
  /// What it guards: the ring or buffer value.
  hir::ValueId Guards = hir::None;
};

//===- Tensor maps ---------------------------------------------------------===//

/// A TMA descriptor (CUtensorMap) the host encodes: the global tensor, the
/// box and the shared-memory swizzle.
struct TensorMap {
  /// The kernel parameter (its name and HIR value).
  std::string Tensor;
  hir::ValueId Value = hir::None;
  DType Element = DType::f32;
  /// The box's extents per dimension of the tensor, outermost first.
  std::vector<std::int64_t> Box;
  SwizzleMode Swizzle = SwizzleMode::none;
};

//===- Instructions --------------------------------------------------------===//

/// A shared-memory matrix descriptor of WGMMA (PTX ISA, "Matrix Descriptor
/// Format"): byte values; the backend encodes each >> 4 (start address in
/// bits [0,14), LBO in [16,30), SBO in [32,46)), the base offset in
/// [49,52) and the mode in [62,64).
struct SmemDescriptor {
  /// The start's byte offset from the operand view's first byte.
  std::int64_t Start = 0;
  std::int64_t LeadingBytes = 0, StrideBytes = 0;
  /// Whether the layout fixes LBO (a swizzled K-major operand does not: the
  /// field is unused and encoded as 1, as CUTLASS does).
  bool LeadingUsed = true;
  int BaseOffset = 0;
  SwizzleMode Swizzle = SwizzleMode::none;

  /// The mode's encoding in bits [62,64): 0 none, 1 128B, 2 64B, 3 32B.
  int swizzleField() const;
  friend bool operator==(const SmemDescriptor &,
                         const SmemDescriptor &) = default;
};

/// One MMA instruction's shape and element types: wgmma.mma_async
/// m64n256k16 f32 += bf16 * bf16 is {64, 256, 16, bf16, bf16, f32}.
struct MmaAtom {
  std::int64_t M = 0, N = 0, K = 0;
  DType A = DType::bf16, B = DType::bf16, D = DType::f32;
  friend bool operator==(const MmaAtom &, const MmaAtom &) = default;
};

/// The PTX opcode of WGMMA atom \p A:
/// `wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16`.
std::string wgmmaOpcode(const MmaAtom &A);

/// Elementwise math on a register fragment's f32 elements, applied on the
/// way into a store (fusion): x -> op(x). Cast rounds x to To and keeps it
/// as f32 (a later op sees the rounded value).
enum class ElementwiseOp : std::uint8_t { Cast, Relu, Neg, Exp };

struct FragmentOp {
  ElementwiseOp Op = ElementwiseOp::Cast;
  DType To = DType::f32;
  friend bool operator==(const FragmentOp &, const FragmentOp &) = default;
};

/// The name of \p Op: cast, relu, neg, exp.
const char *elementwiseName(ElementwiseOp Op);

enum class InstKind : std::uint8_t {
  // Structure.
  Role,      ///< a role branch: threads [Begin, End) run Body
  TileLoop,  ///< persistent_tiles / grid_tiles: Vars (task, m, n)
  KLoop,     ///< tile_offsets: Var from 0 to Bound step Step
  Let,       ///< Var = Value
  // Setup.
  BarrierInit, ///< mbarrier.init every object of Barrier with its arrivals
  FenceBarrierInit, ///< fence.mbarrier_init, then a CTA barrier
  // Pipelines.
  Wait,          ///< mbarrier.try_wait.parity Barrier[Slot], Phase
  ArriveExpectTx, ///< mbarrier.arrive.expect_tx Barrier[Slot], Bytes
  Arrive,        ///< mbarrier.arrive Barrier[Slot]
  TmaLoad,       ///< cp.async.bulk.tensor global -> shared, on Barrier[Slot]
  TmaStore,      ///< cp.async.bulk.tensor shared -> global
  BulkCommit,    ///< cp.async.bulk.commit_group
  BulkWaitRead,  ///< cp.async.bulk.wait_group.read 0
  // Compute.
  ZeroAcc,       ///< the accumulator's registers = 0
  WgmmaFence,    ///< wgmma.fence
  Wgmma,         ///< wgmma.mma_async.m64nNk16 with descriptors A and B
  WgmmaCommit,   ///< wgmma.commit_group
  WgmmaWait,     ///< wgmma.wait_group Count
  // Epilogue.
  StoreFragment, ///< apply Epilogue to the accumulator, cast it, store it
                 ///< into a view per its shard
  FenceProxyAsync, ///< fence.proxy.async.shared::cta
  NamedBarrier,  ///< bar.sync Id, Count
};

/// One instruction or structured statement. Fields are used as Kind says.
struct Inst {
  InstKind Kind = InstKind::Let;
  /// The HIR statement it comes from (messages).
  hir::SourceRange Range;
  /// Role and loops: the statements they run, in order.
  std::vector<InstId> Body;

  // Role: the mesh scope's spelling and mesh (printed), threads
  // [Begin, End).
  std::string RoleName, Mesh;
  std::int64_t Begin = 0, End = 0;

  // Loops and lets.
  /// TileLoop: task, m, n; KLoop and Let: the one variable.
  std::vector<std::string> Vars;
  /// TileLoop: task runs from Start (the CTA index) below Bound (the tile
  /// count) by Stride (the CTA count; the tile count for one tile per CTA);
  /// M and N are the tile's coordinates (lets of its body). KLoop: the
  /// variable runs from Start below Bound (the extent) by Step. Let: Value.
  ExprId Start = None, Bound = None, Stride = None, M = None, N = None,
         Value = None;
  std::int64_t Step = 0;
  bool Persistent = false;
  std::int64_t GroupM = 1;

  // Barriers: the array, the slot and phase (from the guarded ring's or
  // buffer's clock), the clock itself (Verify.cpp compares every use's).
  BarrierId Bar = None;
  ExprId Slot = None, Phase = None, Clock = None;
  /// Wait: the producer's wait on an empty barrier, whose Phase is the
  /// clock's ^ 1 so that its first pass over fresh barriers does not block.
  bool ProducerParity = false;
  /// ArriveExpectTx: the bytes expected; TMA: the box's bytes.
  std::int64_t Bytes = 0;
  /// Threads that perform this instruction (the arrivals it contributes).
  std::int64_t Threads = 0;
  /// The one thread of the role that performs it (-1: all of them).
  std::int64_t Elected = -1;
  /// BarrierInit: the arrival count; WgmmaWait: the groups left pending;
  /// NamedBarrier: the participating threads.
  std::int64_t Count = 0;

  // TMA: the tensor map, the box's coordinates (elements, outermost first),
  // the shared-memory view (View: its first region; a ring's stage is
  // Ring[Slot]) and the box's byte offset in it.
  unsigned Map = None;
  std::vector<ExprId> Coords;
  RegionId View = None;
  hir::ValueId Ring = hir::None;
  std::int64_t ViewOffset = 0;

  // WGMMA: the atom (M x N x K, the operands' and the accumulator's element
  // types); the issuing warpgroup (AxisValue of the compute mesh's spatial
  // M axis Axis); the k-step; the accumulator block of the issuing group
  // (the M-blocks it runs in turn); the operands' rings (their slots are
  // Coords[0] and Coords[1]) and descriptors (relative to the slot);
  // imm-trans-a / imm-trans-b (the operand is MN-major).
  MmaAtom Atom;
  std::string Axis;
  std::int64_t AxisValue = 0;
  std::int64_t KStep = 0;
  std::int64_t Block = 0;
  hir::ValueId RingA = hir::None, RingB = hir::None;
  SmemDescriptor A, B;
  bool TransA = false, TransB = false;

  // ZeroAcc, Wgmma and StoreFragment: the accumulator. StoreFragment: its
  // ShardLayout over the role's mesh (printed), the element type stored and
  // the destination view (View). NamedBarrier: the barrier's id.
  hir::ValueId Acc = hir::None;
  std::string Shard;
  DType CastTo = DType::f32;
  /// StoreFragment: the fused elementwise ops, applied in order to each
  /// element before the cast to CastTo.
  std::vector<FragmentOp> Epilogue;
  std::int64_t BarrierIdNum = 0;
};

//===- Kernels -------------------------------------------------------------===//

/// A kernel parameter as the launcher receives it: a tensor (a type-erased
/// view of Element with Rank extents) or an integer scalar, which the
/// launcher reads as the C++ type the kernel declares (ScalarType) and
/// passes to the device code as the variable Name.
struct Parameter {
  enum class Kind : std::uint8_t { Tensor, Integer };
  std::string Name;
  Kind What = Kind::Tensor;
  DType Element = DType::f32;
  int Rank = 0;
  /// Integers: `std::int64_t`, `int`, ...
  std::string ScalarType;
};

struct Kernel {
  std::string Name;
  std::string MangledName;
  std::string Target;
  hir::SourceRange Range;
  /// The kernel's parameters, in order.
  std::vector<Parameter> Parameters;

  // Launch shape.
  ExprId Grid = None;
  bool Persistent = false;
  std::int64_t BlockThreads = 0;
  std::int64_t SharedBytes = 0;
  /// The alignment the map assumes of the dynamic shared memory's base (the
  /// largest region alignment): the backend declares it so.
  std::int64_t SharedAlign = 16;
  /// The target's limit (cta.shared_memory.max), for the printer and the
  /// verifier.
  std::int64_t SharedLimit = 0;

  std::vector<Region> Regions;
  std::vector<Barrier> Barriers;
  std::vector<TensorMap> Maps;
  std::vector<Expr> Exprs;
  std::vector<Inst> Insts;
  /// Kernel-level statements in program order (setup, then roles).
  std::vector<InstId> Body;

  ExprId addExpr(Expr E);
  InstId addInst(Inst I);
  ExprId constant(std::int64_t V);
  ExprId var(std::string Name);
  ExprId binary(ExprKind K, ExprId L, ExprId R);
  /// Structural equality of two expressions.
  bool sameExpr(ExprId A, ExprId B) const;
};

/// The name of \p K ("wgmma.fence").
const char *instName(InstKind K);

/// An error about the source at \p R: "FILE:LINE:COL: MESSAGE" (the
/// position left out when \p R has none). Lowering and verification
/// collect these with llvm::joinErrors, one per problem.
llvm::Error problemAt(const hir::SourceRange &R, const llvm::Twine &Message);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_LIR_H
