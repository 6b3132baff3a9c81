//===- tf/contract/contract.hpp - Instruction contracts as data -----------===//
//
// An instruction contract says what one atom instruction needs: the execution
// mesh that issues it (with predicates), the architecture capability it
// requires, its parameters with their predicates (some depending on other
// parameters, like WGMMA's a_major on dtype and form), and for each operand a
// pattern: shape (symbolic in the parameters), dtype, storage, and the
// layouts or ShardLayouts it accepts. Contracts are declared once per atom in
// include/tf/atoms/ as constexpr values; one engine (contract/match.hpp)
// matches them against a use, and `tf facts` prints them
// (docs/contracts/README.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/dtype.hpp"
#include "tf/layout/composed_layout.hpp"
#include "tf/layout/mesh_match.hpp"
#include "tf/layout/shard_layout.hpp"
#include "tf/support/fixed_vector.hpp"
#include "tf/support/name.hpp"

#include <cstdint>
#include <span>

namespace tf {

// Contracts are constexpr globals declared in include/tf/atoms/: their lists
// are spans over constexpr arrays of exactly the needed length, so a contract
// costs what it says (fixed-capacity storage would make every contract about
// a megabyte). Contracts are read by reference, never template arguments.
template <class T> using List = std::span<const T>;

//===- Parameters ---------------------------------------------------------===//

enum class ParamKind : std::uint8_t {
  integer, ///< n = 256
  dtype,   ///< dtype = bf16
  choice,  ///< form = Form.SS, a_major = Major.K
};

/// The value of one parameter.
struct ParamValue {
  ParamKind kind = ParamKind::integer;
  std::int64_t integer = 0;
  DType dtype = DType::f32;
  Name choice{}; ///< "SS", "K", ... (the type name lives in the ParamDef)

  static constexpr ParamValue of(std::int64_t v) { return {ParamKind::integer, v}; }
  static constexpr ParamValue of(DType t) {
    ParamValue p;
    p.kind = ParamKind::dtype;
    p.dtype = t;
    return p;
  }
  static constexpr ParamValue choose(Name c) {
    ParamValue p;
    p.kind = ParamKind::choice;
    p.choice = c;
    return p;
  }

  friend constexpr bool operator==(const ParamValue &a, const ParamValue &b) {
    if (a.kind != b.kind)
      return false;
    switch (a.kind) {
    case ParamKind::integer: return a.integer == b.integer;
    case ParamKind::dtype: return a.dtype == b.dtype;
    case ParamKind::choice: return a.choice == b.choice;
    }
    return false;
  }
};

/// `param == value`, the condition of a case or of an operand variant.
struct Condition {
  Name param{};
  ParamValue value{};
};

inline constexpr std::size_t max_conditions = 3;
using Conditions = FixedVector<Condition, max_conditions>;

inline constexpr std::size_t max_param_values = 8;
using ParamValues = FixedVector<ParamValue, max_param_values>;

/// One row of a parameter whose domain depends on other parameters: when all
/// conditions hold, the value must be one of `allowed` (and defaults to
/// `default_value` if `has_default`). The first row whose conditions hold
/// decides; an empty `when` always holds.
struct ParamCase {
  Conditions when{};
  ParamValues allowed{};
  bool has_default = false;
  ParamValue default_value{};
};

struct ParamDef {
  Name name{};
  ParamKind kind = ParamKind::integer;
  /// For choices: the type the values belong to ("Form", "Major").
  Name choice_type{};
  /// Integer predicates lo <= v <= hi and v % step == 0, when has_range.
  bool has_range = false;
  std::int64_t lo = 0, hi = 0, step = 1;
  /// v in allowed, when non-empty.
  ParamValues allowed{};
  /// Domains that depend on other parameters.
  List<ParamCase> cases{};
  /// A derived parameter is fixed by the others (WGMMA's k by the dtype);
  /// its cases give exactly one value each and users do not write it.
  bool derived = false;
  bool has_default = false;
  ParamValue default_value{};

  /// The dtype parameter `name`: one of `allowed`, any dtype when empty.
  static constexpr ParamDef dtype(Name name, ParamValues allowed = {}) {
    ParamDef p;
    p.name = name;
    p.kind = ParamKind::dtype;
    p.allowed = allowed;
    return p;
  }
};

//===- Operands -----------------------------------------------------------===//

/// Which dtype an operand must have.
struct DTypeRule {
  enum class Kind : std::uint8_t {
    any,      ///< no constraint
    fixed,    ///< exactly `dtype`
    of_param, ///< the value of the dtype parameter named `param`
    one_of    ///< one of `set`
  };
  Kind kind = Kind::any;
  DType dtype = DType::f32;
  Name param{};
  FixedVector<DType, 8> set{};
};

enum class LayoutPatternKind : std::uint8_t {
  any,    ///< any layout of the right shape
  shard,  ///< a ShardLayout over the execution mesh (register fragments)
  layout, ///< a (possibly swizzled) layout, unified with the operand's
  /// The compact row-major layout of the operand's shape, under the swizzle
  /// `layout.swizzle`, at any offset: the order in which an instruction
  /// writes a box it was given by shape alone (TMA's shared-memory box).
  /// Grouping does not matter: ((2,8,8),(4,16)):((4096,512,64),(16,1)) is the
  /// compact row-major layout of its shape.
  row_major,
  /// Exactly the layout (or ShardLayout) of operand `operand` of the same
  /// site: element-wise atoms need their operands distributed alike.
  same_as,
};

/// One arrangement an operand may have. Symbols in the layouts are bound by
/// unification (`c`, `sbo`) or name parameters (`n`).
struct LayoutPattern {
  LayoutPatternKind kind = LayoutPatternKind::any;
  Conditions when{};
  ShardLayout shard{};
  ComposedLayout layout{};
  /// For same_as: the operand whose layout this one must equal.
  Name operand{};
  /// Where the layout comes from (ISA section), printed by `tf facts`.
  Name source{};
  /// For a register fragment (shard): how the instruction numbers a unit's
  /// registers, as strides over the fragment's local (unbound) leaves in
  /// written order -- register = sum of leaf coordinate x stride. Empty: the
  /// ShardLayout's own local index (lexicographic over those leaves). The
  /// layout says which elements a unit holds; this says which of its
  /// registers holds each, which an instruction fixes independently (the
  /// WGMMA accumulator, wgmma.hpp). plugin/lower/RegisterFragment.h reads
  /// it with the fragment a match recorded.
  FixedVector<std::int64_t, 8> register_strides{};
};

enum class Access : std::uint8_t { read, write, read_write };

/// An operand may be listed several times under one name: the patterns
/// whose `when` holds are alternatives, and the operand matches if any one of
/// them does (a generic Copy reads gmem, smem or rmem).
struct OperandPattern {
  Name name{};
  /// The variant applies when these hold (e.g. A in smem for form = SS).
  Conditions when{};
  Access access = Access::read;
  /// Symbolic in the parameters: (64, k), (64, n).
  IntTuple shape{};
  DTypeRule dtype{};
  Storage storage = Storage::smem;
  /// Any one of these must match; empty means any layout.
  List<LayoutPattern> layouts{};
  /// For MMA atoms: the atom mode (0 = M, 1 = N, 2 = K of `atom_shape`)
  /// that each top-level mode of `shape` spans -- A (M,K) is {0, 2}, B (K,N)
  /// {2, 1}, C (M,N) {0, 1}. The engine derives the repeat and the per-atom
  /// fragments from it (contract/match.hpp); empty for other atoms, whose
  /// operands are matched whole.
  FixedVector<int, 4> atom_modes{};
};

//===- Contracts ----------------------------------------------------------===//

enum class AtomKind : std::uint8_t { mma, copy, elementwise, reduce, config };

/// A predicate on operand shapes or values that is not a layout, written as
/// data: `box extent <= 256` for TMA, `rows <= 16` for AMX tiles.
struct OperandLimit {
  Name operand{};
  enum class Kind : std::uint8_t {
    mode_extent_max,   ///< extent of top-level mode `mode` <= value
    inner_bytes_min,   ///< bytes of the innermost mode >= value
    inner_bytes_mult,  ///< bytes of the innermost mode % value == 0
    inner_bytes_max,   ///< bytes of the innermost mode <= value
    rank_max,          ///< rank <= value
    base_align_bytes,  ///< start address % value == 0
    every_mode_extent_max,   ///< extent of every top-level mode <= value
    outer_stride_bytes_mult, ///< every stride but the innermost, in bytes,
                             ///< % value == 0 (TMA global strides, ldmatrix
                             ///< rows)
  };
  Kind kind = Kind::mode_extent_max;
  int mode = 0;
  std::int64_t value = 0;
  /// The limit applies only when these hold (TMA's inner-extent bound
  /// depends on the swizzle mode); empty: always.
  Conditions when{};
  /// The predicate as the ISA states it, printed by `tf facts`.
  Name source{};
};

struct Contract {
  /// "nv.sm90.Wgmma": vendor, architecture, family.
  Name id{};
  AtomKind kind = AtomKind::mma;
  /// Must appear among the target architecture's capabilities.
  Name capability{};
  /// The units that issue one instance, with predicates on it.
  MeshPattern execution_mesh{};
  List<ParamDef> params{};
  List<OperandPattern> operands{};
  List<OperandLimit> limits{};
  /// For MMA atoms: the names of the M, N, K extents of one instance, each
  /// a constant or a parameter (`64`, `n`, `k`): the atom domain.
  IntTuple atom_shape{};
};

} // namespace tf
