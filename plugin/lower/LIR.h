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
//     every barrier object (an 8-byte mbarrier on sm_90) with its name;
//   - the pipelines: per ring a `full` and an `empty` barrier per stage with
//     their arrival counts and expected transaction bytes, and the iteration
//     clock that producer and consumer both index slots and phases with;
//   - the roles: each mesh scope as a branch over the thread range its mesh
//     covers, with the tile loops and instructions it runs.
//
// The LIR holds no Clang type and no pointer into the HIR but value ids and
// source ranges (for messages); Lower.cpp builds it, Verify.cpp checks it,
// Printer.cpp prints it, and a backend walks it. This header is its core,
// the same for every target; what one target adds is an extension
// (below; sm_90's is lower/sm90/Sm90.h).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_LIR_H
#define TF_PLUGIN_LOWER_LIR_H

#include "hir/HIR.h"
#include "lower/RegisterFragment.h"

#include "tf/dtype.hpp"
#include "tf/layout/swizzle.hpp"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tf::lower {

using ExprId = unsigned;
using InstId = unsigned;
using RegionId = unsigned;
using BarrierId = unsigned;
inline constexpr unsigned None = ~0u;

struct Kernel;
class Stmt;
class ExtensionVerifier;
/// How a verifier reports one problem at a source range.
using VerifyFailure =
    std::function<void(const hir::SourceRange &, const llvm::Twine &)>;

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
  Barrier,   ///< one barrier object of the hand-off protocol
  Scratch,   ///< a role's partials of reductions across warps (f32)
};

/// One region of the CTA's dynamic shared memory.
struct Region {
  RegionKind Kind = RegionKind::Buffer;
  /// `lhs_ring[1]`, `staged_tile`, `lhs_ring.full[0]`.
  std::string Name;
  std::int64_t Offset = 0, Bytes = 0, Align = 0;
  /// Why Align: "TMA box, 128-byte swizzle period", "mbarrier".
  std::string AlignReason;
  /// Barrier objects: what the hand-off protocol calls one (`mbarrier`).
  std::string Object;
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
/// box, its order and the shared-memory swizzle.
struct TensorMap {
  /// The kernel parameter (its name and HIR value).
  std::string Tensor;
  hir::ValueId Value = hir::None;
  DType Element = DType::f32;
  /// The box's extents in box order, outermost first: Box[j] is the extent
  /// of tensor dimension Order[j]. TMA writes the box into shared memory
  /// row-major in this order, Box.back() contiguous.
  std::vector<std::int64_t> Box;
  /// The box order: the tensor dimension of each box dimension, outermost
  /// first. The last is the tensor's unit-stride dimension (TMA's dimension
  /// 0); {0, 1, ...} when that is the tensor's last. A copy's global
  /// coordinates are listed in box order too.
  std::vector<int> Order;
  SwizzleMode Swizzle = SwizzleMode::none;
};

//===- Statements: the core ------------------------------------------------===//
//
// A lowered kernel is a tree of statements. The core kinds are the same for
// every target: structure (roles, tile and K loops, lets), atom calls (one
// contract's instruction on operand views), and the elementwise register
// ops on fragments (zeroing an accumulator; applying fused ops and storing
// it). What only one target has -- its synchronisation, its encodings --
// is an extension (below): the core names no target instruction.

/// One MMA instruction's shape and element types, as the MMA contract's
/// match recorded them: m64n256k16 f32 += bf16 * bf16 is
/// {64, 256, 16, bf16, bf16, f32}.
struct MmaAtom {
  std::int64_t M = 0, N = 0, K = 0;
  DType A = DType::bf16, B = DType::bf16, D = DType::f32;
  friend bool operator==(const MmaAtom &, const MmaAtom &) = default;
};

/// Elementwise math on a register fragment's f32 elements, applied on the
/// way into a store (fusion): x -> op(x). Cast rounds x to To and keeps it
/// as f32 (a later op sees the rounded value); Scale multiplies x by a
/// float kernel parameter; Add adds the element of another operand at the
/// same position (a tensor read from global memory, with its own ops).
enum class ElementwiseOp : std::uint8_t {
  Cast,
  Relu,
  Neg,
  Exp,
  GeluTanh,
  GeluErf,
  Silu,
  Scale,
  Add,
};

/// A global tensor an epilogue reads where the accumulator tile meets it:
/// tile element (row, column) reads Tensor at Origin[d] + (row, column)[Dims[d]]
/// in each of its dimensions d, as f32, and 0 outside the tensor's extents
/// (a tile past the edge). A matrix has Dims {0, 1}; a vector broadcast
/// along the rows (one value per column) {1}, along the columns {0}.
struct EpilogueLoad {
  /// The kernel parameter.
  std::string Tensor;
  DType Element = DType::f32;
  std::vector<ExprId> Origin;
  std::vector<int> Dims;
  friend bool operator==(const EpilogueLoad &, const EpilogueLoad &) = default;
};

struct FragmentOperand;

struct FragmentOp {
  ElementwiseOp Op = ElementwiseOp::Cast;
  DType To = DType::f32;
  /// Scale: the float kernel parameter.
  std::string Scalar;
  /// Add: the added operand (exactly one).
  std::vector<FragmentOperand> Operand;
  friend bool operator==(const FragmentOp &, const FragmentOp &) = default;
};

/// The operand an Add adds: a load and the ops applied to it in order
/// (no Add among them).
struct FragmentOperand {
  EpilogueLoad Load;
  std::vector<FragmentOp> Ops;
  friend bool operator==(const FragmentOperand &,
                         const FragmentOperand &) = default;
};

/// The name of \p Op: cast, relu, neg, exp, gelu_tanh, gelu_erf, silu,
/// scale, add.
const char *elementwiseName(ElementwiseOp Op);

/// Calls \p F on each load of \p Ops' adds, in order.
void forEachLoad(llvm::ArrayRef<FragmentOp> Ops,
                 llvm::function_ref<void(const EpilogueLoad &)> F);

//===- Register programs ---------------------------------------------------===//
//
// Kernels whose values are register tiles distributed over a role's threads
// (row kernels: elementwise math, broadcasts, reductions along a mode) are
// lowered into four statements on register tiles: a load from a global
// tensor, elementwise math, a reduction along one tile dimension, a store.
// Each thread runs them on the registers it holds; where a register's
// element is is recorded once, per tile (RegisterTile), from the value's
// ShardLayout.

/// One term of a thread's coordinate in a register tile: for thread t of
/// the role (counted from the role's first), ((t / Divisor) % Extent) *
/// Scale.
struct ThreadTerm {
  std::int64_t Divisor = 1, Extent = 1, Scale = 0;
  friend bool operator==(const ThreadTerm &, const ThreadTerm &) = default;
};

/// A register tile: Registers elements of Element per thread of the role;
/// register r of thread t holds the tile element whose coordinate in
/// dimension d is sum(ThreadCoord[d] terms of t) + RegisterCoord[d][r].
struct RegisterTile {
  /// The C++ name the backend declares it with (the value's, or `tN`).
  std::string Name;
  hir::ValueId Value = hir::None;
  DType Element = DType::f32;
  std::int64_t Registers = 0;
  /// The tile's extents, one per dimension.
  std::vector<std::int64_t> Extents;
  std::vector<std::vector<ThreadTerm>> ThreadCoord;
  std::vector<std::vector<std::int64_t>> RegisterCoord;
  /// The ShardLayout it comes from (printed), or how it was derived.
  std::string Shard;
};

/// A float a register op reads: a constant, a float kernel parameter, an
/// integer index expression converted to f32, or arithmetic on them.
struct ScalarExpr {
  enum class Kind : std::uint8_t { Constant, Parameter, Index, Neg, Add, Sub, Mul, Div };
  Kind What = Kind::Constant;
  double Value = 0;
  std::string Parameter;
  ExprId Index = None;
  std::vector<ScalarExpr> Args;
  friend bool operator==(const ScalarExpr &, const ScalarExpr &) = default;
};

/// The math of a register op, per element in f32 (Cast rounds to To, and a
/// later op reads the rounded value; Select is `where(mask, a, b)`).
enum class RegisterOp : std::uint8_t {
  Cast, Add, Sub, Mul, Div, Max, Min, Neg, Exp, Exp2, Rsqrt, Relu, GeluTanh,
  GeluErf, Silu, Select,
};

/// The name of \p Op: cast, add, ..., select.
const char *registerOpName(RegisterOp Op);

/// One operand of a register op: a register tile (register r of the result
/// reads register Map[r] of Tile; Map empty: register r), a scalar, or the
/// mask of a global tile (register r is inside Bounds' tensor).
struct RegisterOperand {
  enum class Kind : std::uint8_t { Tile, Scalar, InBounds };
  Kind What = Kind::Tile;
  unsigned Tile = None;
  std::vector<std::int64_t> Map;
  ScalarExpr Scalar;
  EpilogueLoad Bounds;
};

/// Tile Dst = Op(Operands...) register by register.
struct RegisterMathStmt {
  unsigned Dst = None;
  RegisterOp Op = RegisterOp::Cast;
  DType To = DType::f32;
  std::vector<RegisterOperand> Operands;
};

/// Tile Dst = the elements of Src's tile of global tensor Src.Tensor (0
/// outside its extents), Vector registers at a time where a thread's
/// registers r .. r + Vector - 1 hold consecutive elements of the tensor's
/// last dimension, its unit-stride one (1: one by one).
struct RegisterLoadStmt {
  unsigned Dst = None;
  EpilogueLoad Src;
  std::int64_t Vector = 1;
};

/// Stores tile Src into the tile of Dst.Tensor at Dst.Origin, only the
/// elements inside the tensor; Vector as for loads.
struct RegisterStoreStmt {
  unsigned Src = None;
  EpilogueLoad Dst;
  std::int64_t Vector = 1;
};

/// Tile Dst = the reduction (add or max) of Src along one dimension: each
/// thread folds register r of Src into register Into[r] of Dst (starting
/// from the op's identity), then the lanes exchange partials with
/// shfl.bfly, one round per mask of LaneMasks, so that every lane holding
/// part of an element ends with the whole.
struct RegisterReduceStmt {
  unsigned Dst = None, Src = None;
  RegisterOp Op = RegisterOp::Add;
  std::vector<std::int64_t> Into;
  std::vector<std::int64_t> LaneMasks;
};

// A reduction whose dimension also spans warps continues through shared
// memory: RegisterShareStmt writes each warp's partials into the role's
// scratch region, the role's threads meet (the hand-off protocol's
// HandoffProtocol::meet), RegisterGatherStmt folds the partials of the
// warps that share an element, and the threads meet again before the
// scratch is written anew. Partial r of slot s is float r * Slots + s of
// the region; a thread's slot is the sum of Slot's terms (ThreadTerm) of
// its index in the role.

/// The threads whose index has no bit of Writers (one lane of each group
/// of lanes that share an element) write register r of Src to partial r
/// of their slot.
struct RegisterShareStmt {
  unsigned Src = None;
  RegionId Scratch = None;
  std::int64_t Slots = 0;
  std::vector<ThreadTerm> Slot;
  std::int64_t Writers = 0;
};

/// Register r of Dst = the fold (Op) of partial r of the slots
/// slot(t) + Offsets[j], in the order of Offsets (the warps that share the
/// element), rounded to Dst's type.
struct RegisterGatherStmt {
  unsigned Dst = None;
  RegisterOp Op = RegisterOp::Add;
  RegionId Scratch = None;
  std::int64_t Slots = 0;
  std::vector<ThreadTerm> Slot;
  std::vector<std::int64_t> Offsets;
};

//===- Extensions ----------------------------------------------------------===//

class Extension;

/// One statement (or an atom call's encoding) of a target extension. Its
/// kind is the extension's own enum; a target's classes test it in
/// `classof`, so llvm::isa / dyn_cast / cast work on them (no RTTI).
class ExtensionInst {
public:
  ExtensionInst(const Extension &Owner, unsigned Kind)
      : Owner(&Owner), ExtKind(Kind) {}
  virtual ~ExtensionInst();
  virtual std::unique_ptr<ExtensionInst> clone() const = 0;

  const Extension &extension() const { return *Owner; }
  /// The extension's kind enum, as an integer.
  unsigned kind() const { return ExtKind; }

private:
  const Extension *Owner;
  unsigned ExtKind;
};

/// An extension instruction owned by value (copying clones it).
class ExtensionPtr {
public:
  ExtensionPtr() = default;
  ExtensionPtr(std::unique_ptr<ExtensionInst> P) : P(std::move(P)) {}
  ExtensionPtr(const ExtensionPtr &O) : P(O.P ? O.P->clone() : nullptr) {}
  ExtensionPtr(ExtensionPtr &&) = default;
  ExtensionPtr &operator=(const ExtensionPtr &O) {
    P = O.P ? O.P->clone() : nullptr;
    return *this;
  }
  ExtensionPtr &operator=(ExtensionPtr &&) = default;

  ExtensionInst *get() const { return P.get(); }
  explicit operator bool() const { return P != nullptr; }

private:
  std::unique_ptr<ExtensionInst> P;
};

//===- Core statement kinds ------------------------------------------------===//

/// A role: threads [Begin, End) run Body (`init`: the set-up thread).
struct RoleStmt {
  /// The mesh scope's spelling and mesh (printed).
  std::string Name, Mesh;
  std::int64_t Begin = 0, End = 0;
};

/// persistent_tiles / grid_tiles: `task` runs from Start (the CTA index)
/// below Bound (the tile count) by Stride (the CTA count; the tile count for
/// one tile per CTA); M and N are the tile's coordinates (lets of its body).
/// In clusters of Cluster CTAs (> 1) `task` counts super-tiles: it runs from
/// the cluster's index by the number of clusters, and the CTA of cluster
/// rank r takes row M = super-row * Cluster + r -- every CTA of a cluster
/// runs every super-tile, a row past the tensor included (its boxes read
/// zeros and store nothing), since the CTAs of a cluster fill each other's
/// rings.
struct TileLoopStmt {
  ExprId Start = None, Bound = None, Stride = None, M = None, N = None;
  bool Persistent = false;
  std::int64_t GroupM = 1;
  std::int64_t Cluster = 1;
};

/// tile_offsets: Var runs from Start below Bound by Step.
struct KLoopStmt {
  std::string Var;
  ExprId Start = None, Bound = None;
  std::int64_t Step = 0;
};

/// Var = Value.
struct LetStmt {
  std::string Var;
  ExprId Value = None;
};

/// The accumulator's registers = 0.
struct ZeroFragmentStmt {
  hir::ValueId Acc = hir::None;
};

/// How the warpgroups holding an accumulator split its tile: warpgroup g
/// holds the Rows M x Columns N rows [g Rows M, (g + 1) Rows M) of it as
/// Rows x Columns atom blocks of M x N (M x N: the MMA atom's C), block b
/// at block row b / Columns and block column b % Columns -- the order the
/// lowering numbers a WGMMA's C.Block in.
struct AccumulatorBlocks {
  std::int64_t Rows = 1, Columns = 1;

  std::int64_t count() const { return Rows * Columns; }
  /// Where register \p Reg of block \p Block of thread \p Thread of
  /// warpgroup \p Group is in the whole tile, the registers of each block
  /// numbered as \p Atom numbers one block's.
  FragmentCoord at(const RegisterFragment &Atom, std::int64_t Group,
                   std::int64_t Block, std::int64_t Thread,
                   std::int64_t Reg) const {
    const FragmentCoord C = Atom.coord(Thread, Reg);
    return {(Group * Rows + Block / Columns) * Atom.rows() + C.Row,
            Block % Columns * Atom.columns() + C.Col};
  }
  friend bool operator==(const AccumulatorBlocks &,
                         const AccumulatorBlocks &) = default;
};

/// Applies Epilogue to each element of the accumulator fragment Acc, casts
/// it to CastTo and stores it into View where its shard (a ShardLayout over
/// the role's mesh, printed) puts it.
struct StoreFragmentStmt {
  hir::ValueId Acc = hir::None;
  std::string Shard;
  /// Which register of which thread holds each element of one atom's block
  /// of Acc: the MMA contract's fragment of its accumulator as the match
  /// recorded it, in the instruction's register order (not printed: the
  /// shard says where the elements go, this how a thread numbers them).
  RegisterFragment Registers;
  /// The atom blocks each warpgroup holds (printed when more than one).
  AccumulatorBlocks Blocks;
  DType CastTo = DType::f32;
  /// The fused elementwise ops, applied in order before the cast.
  std::vector<FragmentOp> Epilogue;
  RegionId View = None;
};

/// Which axes of the tile (rows, columns) the loads of \p S's epilogue
/// index.
std::array<bool, 2> loadAxes(const StoreFragmentStmt &S);
/// Whether \p S's epilogue reads a tensor from global memory.
bool readsGlobal(const StoreFragmentStmt &S);

/// Where one operand of an atom call is.
enum class OperandPlace : std::uint8_t {
  Global,    ///< a box of tensor map Map at Coords (elements, in the map's
             ///< box order, outermost first)
  Shared,    ///< Offset bytes into View (a ring's stage: Ring[Slot])
  Registers, ///< block Block of fragment Fragment
};

struct OperandView {
  /// The contract's name of the operand: `src`, `dst`, `A`, `B`, `C`.
  std::string Name;
  OperandPlace Place = OperandPlace::Shared;
  unsigned Map = None;
  std::vector<ExprId> Coords;
  RegionId View = None;
  hir::ValueId Ring = hir::None;
  ExprId Slot = None;
  std::int64_t Offset = 0;
  hir::ValueId Fragment = hir::None;
  std::int64_t Block = 0;
};

/// One instruction of a contract (an MMA or a copy atom) on operand views.
/// The target's encoding of it (what its instruction needs beyond the
/// operands: descriptors, the barrier a copy completes) is Target, an
/// instruction of the target's extension.
struct AtomCallStmt {
  /// The contract's id (`nv.sm90.Wgmma`).
  std::string Contract;
  /// The parameters inference recorded for the site, `name=value`.
  std::vector<std::string> Params;
  std::vector<OperandView> Operands;
  /// Threads that perform it, and the one thread of the role that issues
  /// it (-1: all of them).
  std::int64_t Threads = 0;
  std::int64_t Elected = -1;
  ExtensionPtr Target;

  /// The operand the contract calls \p Name; null when it has none.
  const OperandView *operand(llvm::StringRef Name) const;
  OperandView *operand(llvm::StringRef Name);
};

/// A statement of a target extension.
struct ExtensionStmt {
  ExtensionPtr Inst;
};

enum class StmtKind : std::uint8_t {
  Role,
  TileLoop,
  KLoop,
  Let,
  ZeroFragment,
  StoreFragment,
  AtomCall,
  RegisterLoad,
  RegisterMath,
  RegisterReduce,
  RegisterStore,
  RegisterShare,
  RegisterGather,
  Extension,
};

/// One statement: a source range, the statements a structured one runs (in
/// order; empty for the others) and the payload of its kind.
class Stmt {
public:
  using Payload =
      std::variant<RoleStmt, TileLoopStmt, KLoopStmt, LetStmt,
                   ZeroFragmentStmt, StoreFragmentStmt, AtomCallStmt,
                   RegisterLoadStmt, RegisterMathStmt, RegisterReduceStmt,
                   RegisterStoreStmt, RegisterShareStmt, RegisterGatherStmt,
                   ExtensionStmt>;

  Stmt(Payload P, hir::SourceRange R = {})
      : Range(std::move(R)), Data(std::move(P)) {}
  Stmt(std::unique_ptr<ExtensionInst> I, hir::SourceRange R = {})
      : Stmt(ExtensionStmt{ExtensionPtr(std::move(I))}, std::move(R)) {}

  /// The HIR statement it comes from (messages).
  hir::SourceRange Range;
  std::vector<InstId> Body;

  StmtKind kind() const { return static_cast<StmtKind>(Data.index()); }
  template <class T> bool is() const {
    return std::holds_alternative<T>(Data);
  }
  template <class T> T *getIf() { return std::get_if<T>(&Data); }
  template <class T> const T *getIf() const { return std::get_if<T>(&Data); }
  template <class T> T &get() { return std::get<T>(Data); }
  template <class T> const T &get() const { return std::get<T>(Data); }

  /// The extension instruction of an extension statement, or the target
  /// encoding of an atom call; null otherwise.
  const ExtensionInst *extension() const;
  ExtensionInst *extension() {
    return const_cast<ExtensionInst *>(std::as_const(*this).extension());
  }

private:
  Payload Data;
};

/// The extension instruction of \p S as a \p T (an extension's class), or
/// null: `if (auto *W = as<sm90::Wait>(S))`.
template <class T> const T *as(const Stmt &S) {
  return llvm::dyn_cast_if_present<T>(S.extension());
}
template <class T> T *as(Stmt &S) {
  return llvm::dyn_cast_if_present<T>(S.extension());
}

/// A target's extension of the LIR: one static object per extension, which
/// its instructions point at. The printer and the verifier reach the
/// extension's statements through it; the target's backend (its emitter)
/// and the interpreter include the extension's header and cast.
class Extension {
public:
  virtual ~Extension();
  /// `sm90`.
  virtual llvm::StringRef name() const = 0;
  /// Prints \p S -- a statement of this extension, or an atom call it
  /// encodes -- as one line without indentation or newline.
  virtual void print(const Kernel &K, const Stmt &S,
                     llvm::raw_ostream &OS) const = 0;
  /// The checks of this extension's statements in \p K; each problem is
  /// reported through \p Fail.
  virtual std::unique_ptr<ExtensionVerifier>
  verifier(const Kernel &K, VerifyFailure Fail) const = 0;
};

//===- Kernels -------------------------------------------------------------===//

/// A kernel parameter as the launcher receives it: a tensor (a type-erased
/// view of Element with Rank extents), an integer or a floating-point
/// scalar, which the launcher reads as the C++ type the kernel declares
/// (ScalarType) and passes to the device code as the variable Name (a
/// float: as f32, what an epilogue computes in).
struct Parameter {
  enum class Kind : std::uint8_t { Tensor, Integer, Float };
  std::string Name;
  Kind What = Kind::Tensor;
  DType Element = DType::f32;
  int Rank = 0;
  /// Integers: `std::int64_t`, `int`, ...; floats: `float`, `double`.
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
  /// CTAs per cluster, consecutive along the grid (cluster rank = CTA
  /// index % ClusterCtas); 1: no clusters.
  std::int64_t ClusterCtas = 1;
  std::int64_t BlockThreads = 0;
  /// CTAs one SM must hold at once (tf::resident_ctas; 1 when unwritten):
  /// the backend caps registers per thread to fit them.
  std::int64_t ResidentCtas = 1;
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
  /// The register tiles of register programs (RegisterMathStmt::Dst, ...).
  std::vector<RegisterTile> Tiles;
  std::vector<Expr> Exprs;
  std::vector<Stmt> Insts;
  /// Kernel-level statements in program order (setup, then roles).
  std::vector<InstId> Body;

  ExprId addExpr(Expr E);
  InstId addInst(Stmt S);
  ExprId constant(std::int64_t V);
  ExprId var(std::string Name);
  ExprId binary(ExprKind K, ExprId L, ExprId R);
  /// Structural equality of two expressions.
  bool sameExpr(ExprId A, ExprId B) const;
};

/// An error about the source at \p R: "FILE:LINE:COL: MESSAGE" (the
/// position left out when \p R has none). Lowering and verification
/// collect these with llvm::joinErrors, one per problem.
llvm::Error problemAt(const hir::SourceRange &R, const llvm::Twine &Message);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_LIR_H
