//===- plugin/hir/HIR.h - tf's tile-level IR --------------------*- C++ -*-===//
//
// The HIR is what the plugin knows about one [[tf::kernel]] function after
// Sema: its target and topologies, its values (tensor parameters, buffers,
// rings, tensors produced by ops, index scalars), and a tree of statements --
// mesh scopes, tile loops and ops -- each with its source range. Every op
// carries its AccessRelation: an iteration domain and, per operand, which
// domain dimensions index which operand dimensions, read or written.
//
// The HIR holds no Clang type: BuildHIR.cpp and buildhir/ are
// the only code that translates Clang's AST into it; inference, the contract
// checks, the printer, the queries and the backends read only this header.
// Source positions are kept as Clang's raw SourceLocation encodings (so the
// diagnostics can point back at exact ranges) and as presumed file:line:col
// (so the printer needs no SourceManager).
//
// Values, expressions and statements live in per-kernel arenas and refer to
// each other by index; an index is stable for the kernel's lifetime.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_HIR_HIR_H
#define TF_PLUGIN_HIR_HIR_H

#include "hir/HeapOptional.h"
#include "hir/Ops.h"

#include "tf/contract/match.hpp"
#include "tf/contract/site.hpp"
#include "tf/dtype.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/layout/text/parse.hpp"
#include "tf/layout/topology.hpp"
#include "tf/schedule/contract_facts.hpp"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tf::hir {

/// A source range: Clang's raw encodings of its begin and end (0: none; as in
/// clang::SourceRange, End is the start of the last token, unless Chars) and
/// the presumed position of its begin.
struct SourceRange {
  unsigned Begin = 0;
  unsigned End = 0;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// End is the character after the range, which lies inside one token:
  /// a part of a string literal (the `Swizzle(3,4,3)` of a layout text).
  bool Chars = false;

  bool valid() const { return Begin != 0; }
};

using ValueId = unsigned;
using ExprId = unsigned;
using StmtId = unsigned;
inline constexpr unsigned None = ~0u;

//===- Types ---------------------------------------------------------------===//

/// A tensor's type as its C++ type spells it: element, layout text (shape,
/// strides, axis bindings, offset, swizzle) and storage.
struct TensorType {
  DType Element = DType::f32;
  Storage Where = Storage::gmem;
  /// The parsed layout text; its layout's `?` extents are dynamic.
  LayoutText Layout{};
  /// The text as written in the type, for printing and diagnostics.
  std::string Spelling;
  /// For a bounded tile (t.tile<BM, BK>(...)): the window's static extents.
  /// Empty for a whole tensor.
  std::vector<std::int64_t> WindowExtents;
  /// Where the declaration that fixes this type writes it (the
  /// tf::Tensor<T, "layout", S> reached through aliases and the slot types
  /// of rings and buffers), so that a finding about the element type or the
  /// swizzle stands at the mistake rather than at a use: the element type
  /// argument, the layout text's string literal and the `Swizzle(...)`
  /// inside it -- or, where the text writes no swizzle, the empty range at
  /// the end of the text, where one would be written. Invalid where no
  /// declaration spells them (a type derived by inference, a template
  /// parameter).
  SourceRange ElementRange;
  SourceRange LayoutRange;
  SourceRange SwizzleRange;
  /// Where the layout text writes each leaf's stride, in leaf order (char
  /// ranges inside the literal); empty unless every stride is a number.
  std::vector<SourceRange> StrideRanges;

  /// The logical shape: the window's extents, or the top-level modes' sizes
  /// of the layout (dynamic where the layout has `?`).
  IntTuple shape() const;
  /// The static extents of shape()'s top-level modes, -1 where dynamic.
  std::vector<std::int64_t> extents() const;
};

/// Extents as diagnostics write them: "(128,?)", `?` for a dynamic one.
std::string shapeText(llvm::ArrayRef<std::int64_t> Extents);

//===- Values --------------------------------------------------------------===//

enum class ValueKind : std::uint8_t {
  Tensor, ///< a tensor view: parameter, tile, op result, buffer
  Ring,   ///< tf::Ring<Slot, Stages>: Stages slots of type Type
  Index,  ///< an integer: loop index, extent, tile count
  Scalar, ///< a floating-point number an op takes: a kernel parameter
          ///< (`float eps`) or an expression written at the op (`1.0f / n`)
};

/// Where a value comes from.
enum class ValueOrigin : std::uint8_t {
  Parameter, ///< a kernel parameter
  Local,     ///< a declared local (buffer, ring, `auto x = op(...)`, scalar)
  Temporary, ///< an unnamed op result used as an operand
  LoopIndex, ///< an induction variable of a tile loop
};

/// A float written at an op as tf reads it: a constant (what Clang
/// evaluates), a float kernel parameter, an integer index expression
/// converted to float, or arithmetic on them (`1.0f / x.extent(1)`).
struct ScalarExpr {
  enum class Kind : std::uint8_t { Constant, Parameter, Index, Neg, Add, Sub, Mul, Div };
  Kind What = Kind::Constant;
  double Constant = 0;
  ValueId Parameter = None;
  ExprId Index = None;
  std::vector<ScalarExpr> Args;
};

struct Value {
  ValueKind Kind = ValueKind::Tensor;
  ValueOrigin Origin = ValueOrigin::Local;
  /// The C++ name; empty for temporaries (printed %N).
  std::string Name;
  /// For tensors the value's type, for rings the slot's type.
  TensorType Type;
  /// For rings.
  int Stages = 0;
  /// The statement that defines it (None for parameters).
  StmtId Def = None;
  /// The mesh scope it was defined in (None at kernel scope).
  StmtId Scope = None;
  /// For a tile `t.tile<BM, BK>(m0, k0)`: the tensor it is a window of and
  /// the window's offsets (one per dimension); its extents are
  /// Type.WindowExtents.
  ValueId TileOf = None;
  std::vector<ExprId> TileOffsets;
  /// For an Index value defined by a Let: the expression.
  ExprId Init = None;
  /// For an Index parameter: the C++ type it is declared with, as a
  /// fixed-width spelling (`std::int64_t`, `std::uint32_t`).
  std::string ScalarType;
  /// For a Scalar written at an op (not a parameter): the expression as
  /// written (`1.0f / x.extent(1)`); its type is Type.Element.
  std::string Written;
  /// For a Scalar written at an op: Written as tf reads it (unset when it
  /// cannot: the op is then not lowered).
  std::optional<ScalarExpr> Scalar;
  SourceRange Range;

  // Filled by inference (analysis/Inference.cpp):
  /// For a register tensor whose layout binds mesh axes: its ShardLayout over
  /// the mesh of the scope that defines it (Kernel::meshOf(Def)).
  std::optional<tf::ShardLayout> Shard;
  /// Type was left unset by the builder and derived from the op's operands
  /// (a cast keeps the layout, a ring TMA load yields the slot type, ...).
  bool TypeDerived = false;
};

//===- Index expressions ---------------------------------------------------===//

/// Integer expressions over index values: tile offsets (m * BM), extents
/// (a.extent(1)), tile counts (ceil_div(M, BM)). What the HIR cannot read is
/// kept as Opaque with its source text.
enum class ExprKind : std::uint8_t {
  Constant, ///< Value
  Ref,      ///< the index value Ref
  Extent,   ///< extent(Ref, Dim) of a tensor value
  Add,
  Sub,
  Mul,
  Div,
  Mod,      ///< remainder of non-negative values
  CeilDiv,
  Min,
  Max,
  Opaque,   ///< Text
};

struct Expr {
  ExprKind Kind = ExprKind::Constant;
  std::int64_t Constant = 0;
  ValueId Ref = None;
  unsigned Dim = 0;
  ExprId Lhs = None, Rhs = None;
  std::string Text;
  /// Filled by inference: the value when it is a compile-time constant
  /// (constants, static extents, Let-bound indices and arithmetic on them).
  std::optional<std::int64_t> Static;
  /// Where the expression is written, for diagnostics about it (a loop's
  /// step, a tile count); invalid for expressions tf made up.
  SourceRange Range;
};

//===- Access relations ----------------------------------------------------===//

enum class AccessKind : std::uint8_t { Read, Write, ReadWrite };

/// How an op touches one operand: operand dimension i is indexed by domain
/// dimension Map[i]; the operand is a window of its value at Offsets (one
/// expression per dimension of the value; empty: the whole value).
struct Access {
  ValueId Operand = None;
  AccessKind Kind = AccessKind::Read;
  std::vector<unsigned> Map;
  std::vector<ExprId> Offsets;
  /// The window's extents when Offsets is not empty.
  std::vector<std::int64_t> Extents;
  SourceRange Range;
};

/// The iteration domain of an op (named dimensions, e.g. m, n, k) and how it
/// reaches each operand. A tiled MMA: domain (M, N, K), C(m, n) read-write,
/// A(m, k) and B(k, n) read. An element-wise op or a copy: the result's
/// shape, every operand indexed by the same dimensions.
struct AccessRelation {
  std::vector<std::string> DimNames;
  IntTuple Domain{};
  std::vector<Access> Accesses;
};

//===- Statements ----------------------------------------------------------===//

enum class StmtKind : std::uint8_t {
  Block,     ///< a plain `{ ... }`
  MeshScope, ///< [[tf::mesh(m)]] on a block, declaration or statement
  Loop,      ///< for (... : tile_offsets / persistent_tiles / grid_tiles)
  Let,       ///< an index value defined by an expression
  Alloc,     ///< a buffer or ring declared without an op (tf::Ring<...> r;)
  Op,        ///< a tf op (tf.op.NAME)
};

enum class LoopKind : std::uint8_t { TileOffsets, PersistentTiles, GridTiles };

/// The instruction a `tf::schedule<Atom, Repeat>` chose.
struct Schedule {
  /// The atom type as written ("tf::TiledMma<Wgmma>") and the contract id it
  /// chooses ("nv.sm90.Wgmma").
  std::string AtomSpelling;
  std::string ContractId;
  /// The atom's parameters (contract names; derived ones included).
  detail::AtomParams Params{};
  /// Where each parameter's template argument is written (parallel to
  /// Params; invalid when it has none), for fix-its.
  std::vector<SourceRange> ParamRanges;
  /// The written Repeat<...> (empty when not written) and its range (the
  /// whole `tf::Repeat<...>` type).
  std::vector<std::int64_t> Repeat;
  SourceRange RepeatRange;
  /// Filled by inference for tiled MMAs: the derived repeat (M, N, K). For
  /// box copies (a TMA): the number of boxes per dimension of the copy (1
  /// each when the copy is one box; analysis/Site.h, splitIntoBoxes).
  std::vector<std::int64_t> DerivedRepeat;
  /// Filled by inference for box copies, with DerivedRepeat: one box's
  /// extents (the TMA box, innermost last), and where the boxes start in
  /// shared memory -- one mode per dimension; box (i0, i1, ...) starts
  /// BoxOffsets(i0, i1, ...) elements after the copy's first shared-memory
  /// element and covers [i_d * BoxExtents[d], (i_d + 1) * BoxExtents[d]) of
  /// every dimension d of the copy (its global-memory coordinates). The
  /// optimal GEMM's staged tile (128,(4,64)):(64,(8192,1)) is stored as
  /// boxes <1,4> of 128x64 at (1,4):(0,8192).
  std::vector<std::int64_t> BoxExtents;
  /// The box order: the copy's dimensions as the box's, outermost first
  /// (analysis/Site.h, BoxSplit::Order). The last is the global tensor's
  /// unit-stride dimension, TMA's dimension 0; {0, 1} for a row-major
  /// tile, {1, 0} for a tile of a column-major tensor.
  std::vector<int> BoxOrder;
  tf::Layout BoxOffsets{};
  /// Box 0's shared-memory layout in box order: the operand the contract
  /// checks for every box (with BoxExtents, the site the checks match).
  tf::ComposedLayout BoxLayout{};
  /// Filled by inference on the kernel's target: the contract engine's
  /// match of this site (of box 0 for a box copy) -- accepted or not, with
  /// every parameter, the repeat and the operand fragments. The checks
  /// report its reasons and lowering reads its decisions; nothing matches
  /// the site again. Empty when the site could not be built (no mesh, an
  /// unknown contract). On the heap: a MatchReport is ~360 KB.
  HeapOptional<MatchReport> Match;
};

/// How a mesh scope's mesh is written when it is the last groups of a
/// declared mesh -- `root = tf::mesh(LEVEL, tf::layout<"(W,...)">, ...)`,
/// `scope = root.sub(tf::range(B, E), ...)`, optionally followed by
/// `.reshape<"(G,...)">(...)` -- with the group counts written as numbers:
/// where a check's fix-its change how many groups the scope runs.
struct MeshGroupsSource {
  /// The root's layout literal (quotes included) and its text.
  SourceRange RootLayout;
  std::string RootLayoutText;
  /// tf::range's bounds, and where its end is written.
  std::int64_t Begin = 0;
  std::int64_t End = 0;
  SourceRange EndRange;
  /// The reshape's shape literal and its text; invalid without a reshape.
  SourceRange ReshapeShape;
  std::string ReshapeShapeText;
};

struct Stmt {
  StmtKind Kind = StmtKind::Block;
  SourceRange Range;
  /// Children in program order (Block, MeshScope, Loop).
  std::vector<StmtId> Body;
  StmtId Parent = None;

  // MeshScope
  tf::Mesh Mesh{};
  /// The attribute's argument as written ("compute").
  std::string MeshSpelling;
  /// The attribute is on a block of statements, not on one declaration or
  /// statement (whose ops it alone places).
  bool MeshOnBlock = false;
  /// How the mesh is written, when as groups of a declared mesh.
  std::optional<MeshGroupsSource> MeshGroups;

  // Loop
  LoopKind Loop = LoopKind::TileOffsets;
  /// Induction values: (k) or (m, n).
  std::vector<ValueId> Indices;
  /// tile_offsets(Extent, Step); persistent_tiles/grid_tiles(mesh, GM, GN).
  std::vector<ExprId> Bounds;
  /// persistent_tiles / grid_tiles: the CTA mesh and the options.
  tf::Mesh LoopMesh{};
  std::int64_t GroupM = 1;
  bool ColumnMajor = false;
  std::int64_t Cluster = 1;
  /// Where the cluster option is written (`.cluster = 2`; the options
  /// argument when not by name); invalid when it is not written.
  SourceRange ClusterRange;

  // Let
  ValueId Defines = None;
  ExprId Init = None;

  // Op
  /// The op (Ops.def): the tf.op.NAME annotation of the called function.
  OpKind Op = OpKind::Schedule;
  /// The op's source range without the assignment around it.
  SourceRange CallRange;
  /// Operands in call order (values; tiles are their own values).
  std::vector<ValueId> Operands;
  /// The value the op produces or assigns to (None for none).
  ValueId Result = None;
  /// True for `acc = op(...)`: the result overwrites an existing value.
  bool Assigns = false;
  AccessRelation Access;
  std::optional<Schedule> Sched;
  /// tf::cast<T>: the element type converted to.
  DType CastTo = DType::f32;
  /// tf::broadcast<Mode>(t, like): the mode of `like` along which t is
  /// repeated (of a matrix: 0, one value per column, repeated down the rows;
  /// 1, one value per row, repeated along the columns).
  unsigned BroadcastMode = 0;
  /// tf::reduce_sum<Mode> / reduce_max<Mode>: the mode reduced.
  unsigned ReduceMode = 0;
};

//===- Kernels -------------------------------------------------------------===//

struct Kernel {
  /// "gemm::gemm" and, for instantiations, "gemm::run<128>"; the mangled
  /// name for the backends' launcher registry.
  std::string Name;
  std::string MangledName;
  SourceRange Range;
  /// For an instantiation of a kernel template: where it was instantiated.
  SourceRange InstantiatedAt;
  /// tf::target("...") id; empty when the kernel names none.
  std::string Target;
  /// Where the kernel attribute names the target.
  SourceRange TargetRange;
  std::vector<tf::Topology> Topologies;
  /// Where each topology is written (parallel to Topologies).
  std::vector<SourceRange> TopologyRanges;
  /// Where each topology's extent is written as a number (parallel to
  /// Topologies; invalid where it is another expression).
  std::vector<SourceRange> TopologyExtentRanges;
  /// tf::resident_ctas(n): CTAs one SM must hold at once (1 when unwritten)
  /// and where it is written.
  std::int64_t ResidentCtas = 1;
  SourceRange ResidentCtasRange;
  std::vector<ValueId> Parameters;
  /// The function body.
  StmtId Body = None;

  std::vector<Value> Values;
  std::vector<Expr> Exprs;
  std::vector<Stmt> Stmts;

  ValueId addValue(Value V);
  ExprId addExpr(Expr E);
  StmtId addStmt(Stmt S);

  /// The innermost MeshScope enclosing statement \p S (or S itself); None at
  /// kernel scope.
  StmtId meshScopeOf(StmtId S) const;
  /// The tile loop (persistent_tiles, grid_tiles) enclosing statement \p S
  /// with no mesh scope between them; None when there is none.
  StmtId tileLoopOf(StmtId S) const;
  /// The mesh a statement runs on: its mesh scope's; outside every mesh
  /// scope but in a tile loop's body, one unit of the loop's level (each
  /// unit runs the body for its own tiles: an AMX kernel's core); outside
  /// both, the kernel's first (outermost) topology as a mesh of all its
  /// units -- an op there runs on the CTA mesh, not on threads.
  std::optional<tf::Mesh> meshOf(StmtId S) const;
  /// How the mesh of \p S is spelled where no mesh scope names it.
  std::string_view unscopedMeshText(StmtId S) const;
  /// The statements in program order (preorder).
  std::vector<StmtId> preorder() const;
};

/// Whether elementwise op \p Op's result is a temporary read only by
/// scheduled ops or by fused elementwise ops (a chain ending at a scheduled
/// op: `tf::schedule<tf::Copy>(tf::cast<bf16>(tf::relu(acc)), ...)`): the
/// instruction that reads it applies it, so it needs no instruction and
/// holds no registers of its own.
bool isFusedElementwise(const Kernel &K, const Stmt &Op);

/// Whether op \p Op is part of a register program: unscheduled, in a mesh
/// scope of the kernel's thread level, on register tiles -- elementwise
/// math, casts, selects and masks, broadcasts and reductions whose result
/// is a register tensor, register tiles declared by tf::empty / zeros /
/// full that no scheduled op accumulates into, and copies between a global
/// tile and a register tile -- and not fused into a scheduled op. Its
/// instructions follow from its operands' layouts (lower/RegisterProgram.h).
bool isRegisterOp(const Kernel &K, const Stmt &Op);

/// All kernels of a translation unit, in source order (instantiations after
/// one another).
struct Module {
  std::string MainFile;
  std::vector<Kernel> Kernels;
};

} // namespace tf::hir

#endif // TF_PLUGIN_HIR_HIR_H
