//===- tf/contract/match.hpp - Matching a site against a contract ---------===//
//
// The one engine that decides whether an atom may be used at a site:
//
//   tf::MatchReport r = tf::match(tf::nv::sm90::wgmma_contract, site);
//   if (!r) for (const tf::Reason &why : r.reasons) ... describe(why, c) ...
//
// It checks, and reports *every* failing item (not just the first):
//  - the target capability (when the site lists the target's capabilities);
//  - the execution mesh (unification with the contract's pattern, then the
//    pattern's predicates; mesh_match.hpp);
//  - the parameters: unknown names, values of the wrong kind, missing
//    values without default, each predicate (range, step, set) and the
//    per-case domain that depends on other parameters; derived parameters
//    are computed and may not be written otherwise;
//  - each operand: present, dtype, storage, shape, layout, and the
//    contract's operand limits. Shape symbols (`r`, `*s`) bind once per
//    site: a later operand with another value is refused naming the operand
//    that bound it. An arrangement's own symbols (`sbo`, a row stride `s`)
//    bind per operand. An operand without a layout has its layout unchecked.
// For MMA atoms (contracts with an atom_shape) the operands' shapes are the
// *tile*: the engine derives repeat = tile / atom per mode (M, N, K), refuses
// tiles that do not decompose (saying which extent and why), divides every
// operand layout into per-atom fragments and matches fragment 0 against the
// operand's patterns; the other fragments differ from fragment 0 by a
// constant offset (the `rest` layout): a codomain translation for register
// fragments, an address translation for shared-memory tiles (checked against
// the operand's base_align_bytes limit). Repeats along leaves bound to the
// mesh are spatial (2@group in examples/gemm/optimal.cpp: two warpgroups run
// one M atom each),
// the others sequential. A written repeat that differs from the derived one
// is a reason carrying the derived value.
//
// Everything here is constexpr and allocation-free; describe.hpp prints
// reasons and reports at run time. docs/contracts/engine.md has the rules.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"
#include "tf/contract/site.hpp"
#include "tf/layout/mesh_match.hpp"
#include "tf/layout/shard_match.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf {

/// Reasons one report holds; further ones are counted in `dropped`.
inline constexpr std::size_t max_reasons = 12;

//===- Reasons -------------------------------------------------------------===//

enum class ReasonKind : std::uint8_t {
  capability,      ///< the target lacks the contract's capability
  mesh,            ///< the site's mesh does not match the execution mesh
  param_unknown,   ///< the site writes a parameter the contract lacks
  param_type,      ///< a value of the wrong kind (an integer for a dtype)
  param_missing,   ///< no value written and no default
  param_predicate, ///< the value violates one of the parameter's predicates
  param_case,      ///< the value is outside the domain of the applying case
  param_derived,   ///< a derived parameter written with another value
  operand_missing, ///< the contract needs an operand the site lacks
  operand_unknown, ///< the site has an operand the contract does not know
  operand_shape,   ///< wrong rank or extent
  operand_dtype,
  operand_storage,
  operand_layout,  ///< the (fragment) layout matches no arrangement
  operand_limit,   ///< an OperandLimit of the contract fails
  tile_mismatch,   ///< two operands disagree on an M, N or K extent
  tile_extent,     ///< a tile extent does not decompose into atoms
  repeat,          ///< the written repeat differs from the derived one
};

/// Which predicate of a ParamDef failed.
enum class ParamPredicate : std::uint8_t {
  none,
  lo,      ///< lo <= v
  hi,      ///< v <= hi
  step,    ///< v % step == 0
  allowed, ///< v in allowed
};

/// What is wrong with an operand's layout.
enum class LayoutProblem : std::uint8_t {
  none,
  kind,       ///< e.g. a ShardLayout expected, a plain layout given
  no_variant, ///< no arrangement applies for these parameters
  unify,      ///< the fragment does not unify; `failure` says where
  swizzle,    ///< the swizzle differs (expected in `variant`'s pattern)
  offset,     ///< the offset differs from the pattern's constant
  grouping,   ///< the layout's leaves do not group into the operand's shape
  split,      ///< dividing by the atom would split a leaf bound to the mesh
  other_mesh, ///< distributed over another mesh than the site's
  malformed,  ///< the operand's layout itself is invalid; `error` says why
  row_major,  ///< not the compact row-major layout of its shape
  same_as,    ///< differs from the layout of operand `other`
};

/// One reason a match failed, carrying everything needed to print it
/// (describe.hpp) with the contract only.
struct Reason {
  ReasonKind kind = ReasonKind::mesh;
  /// The parameter, operand or capability named.
  Name subject{};
  /// Index into contract.params / contract.operands / contract.limits, or
  /// the atom mode (0 = M, 1 = N, 2 = K) for tile and repeat reasons.
  int index = -1;
  /// The ParamCase (param_case, param_derived) or LayoutPattern
  /// (operand_layout) concerned; -1 if none.
  int variant = -1;
  ParamPredicate predicate = ParamPredicate::none;
  LayoutProblem problem = LayoutProblem::none;
  /// The offending value (parameters) and, for param_derived, the derived.
  ParamValue value{};
  ParamValue expected_value{};
  /// Numbers: extents (tile, atom, limit), ranks, bytes, offsets.
  std::int64_t expected = 0;
  std::int64_t found = 0;
  /// The other operand of a tile_mismatch or a same_as operand_layout; for
  /// operand_shape, the operand that bound the conflicting shape symbol
  /// (then `expected_shape` is the pattern as that binding instantiates it).
  Name other{};
  DType expected_dtype = DType::f32, found_dtype = DType::f32;
  Storage expected_storage = Storage::smem, found_storage = Storage::smem;
  /// operand_storage, operand_missing: the storages of every applying
  /// alternative of the operand (bit `1 << Storage`); 0: expected_storage /
  /// the pattern's.
  std::uint8_t storages = 0;
  /// Shapes (operand_shape: pattern (instance) and site shape) or repeats
  /// (repeat: derived and written).
  IntTuple expected_shape{}, found_shape{};
  /// Unification failure (mesh, operand_layout/unify).
  MatchFailure failure{};
  /// Whether `failure` is in the meshes of two ShardLayouts.
  bool in_mesh = false;
  /// mesh: the site's mesh; operand_layout: the fragment's mesh when it is
  /// a ShardLayout (other_mesh: the operand's mesh).
  Mesh mesh{};
  /// operand_layout: the fragment as compared (reshaped to the pattern's
  /// extents for smem layouts), with `axes` when a ShardLayout.
  ComposedLayout layout{};
  FixedVector<AxisRef, max_shard_leaves> axes{};
  bool sharded = false;
  Error error{};

  /// The fragment of an operand_layout reason as a ShardLayout.
  constexpr ShardLayout fragment_shard() const { return {layout.layout, axes, mesh}; }
};

//===- Reports -------------------------------------------------------------===//

enum class ParamSource : std::uint8_t {
  given,        ///< written at the site
  case_default, ///< the default of the case that applies
  def_default,  ///< the parameter's own default
  derived,      ///< computed from other parameters
  missing,      ///< no value
};

struct ResolvedParam {
  Name name{};
  ParamValue value{};
  ParamSource source = ParamSource::missing;
  /// No reason concerns it.
  bool valid = false;
};

/// The repeat of an MMA tile: count[d] = tile[d] / atom[d] for d = M, N, K.
struct RepeatDerivation {
  bool derived = false;
  std::int64_t count[3] = {1, 1, 1};
  std::int64_t tile[3] = {0, 0, 0};
  std::int64_t atom[3] = {0, 0, 0};
  /// Of count[d], how many run side by side on different units (the
  /// product of the fragment leaves bound to mesh axes), and the mesh axis
  /// (the first, by name or `@leaf`) they are bound to; the rest of count[d]
  /// are issued one after another by the same units.
  std::int64_t spatial[3] = {1, 1, 1};
  Name spatial_axis[3] = {};
};

/// The per-atom fragment of one operand: fragment 0 and the layout of the
/// other fragments' offsets.
struct OperandFragment {
  Name name{};
  /// The contract operand (OperandPattern index) and arrangement matched.
  int pattern = -1;
  int variant = -1;
  OperandLayoutKind kind = OperandLayoutKind::none;
  /// Fragment 0 (composed/plain: `layout`; shard: `shard`).
  ComposedLayout layout{};
  ShardLayout shard{};
  /// One mode per operand mode: the offsets (elements / codomain) of the
  /// fragments (r_0, r_1); for a shard, the leaves bound to the mesh are
  /// spatial, the others sequential.
  Layout rest{};
  /// The operand pattern's symbols: `c`, `sbo`, `lbo`, `a0`, `p0`; for
  /// non-MMA atoms also the site's shape symbols (`r`, `c`, `*box`).
  Bindings bindings{};
};

struct MatchReport {
  bool accepted = false;
  FixedVector<Reason, max_reasons> reasons{};
  /// Reasons beyond max_reasons, not kept.
  std::size_t dropped = 0;
  /// Every parameter of the contract, in contract order.
  FixedVector<ResolvedParam, max_site_params> params{};
  /// The execution mesh's bindings (p0, *g, *gs) and its instance.
  Bindings bindings{};
  Mesh mesh_instance{};
  RepeatDerivation repeat{};
  FixedVector<OperandFragment, max_site_operands> fragments{};

  constexpr explicit operator bool() const { return accepted; }

  /// Whether some reason has kind `k` (and subject `subject`, if given).
  constexpr bool has(ReasonKind k, std::string_view subject = {}) const {
    for (const Reason &r : reasons)
      if (r.kind == k && (subject.empty() || r.subject == subject))
        return true;
    return false;
  }
  /// The resolved value of parameter `name`, or null.
  constexpr const ParamValue *param(std::string_view name) const {
    for (const ResolvedParam &p : params)
      if (p.name == name && p.source != ParamSource::missing)
        return &p.value;
    return nullptr;
  }
  /// The fragment of operand `name`, or null.
  constexpr const OperandFragment *fragment(std::string_view name) const {
    for (const OperandFragment &f : fragments)
      if (f.name == name)
        return &f;
    return nullptr;
  }
};

namespace detail {

constexpr void add(MatchReport &r, const Reason &why) {
  if (!r.reasons.push_back(why))
    ++r.dropped;
}

constexpr Reason reason(ReasonKind k, Name subject, int index = -1) {
  Reason r;
  r.kind = k;
  r.subject = subject;
  r.index = index;
  return r;
}

//===- Parameters ---------------------------------------------------------===//

/// -1: the condition cannot be decided (a parameter it reads has no valid
/// value), 0: false, 1: true.
constexpr int holds(const Conditions &when, const MatchReport &r) {
  int out = 1;
  for (const Condition &c : when) {
    const ResolvedParam *p = nullptr;
    for (const ResolvedParam &q : r.params)
      if (q.name == c.param)
        p = &q;
    if (p == nullptr || !p->valid)
      out = out == 0 ? 0 : -1;
    else if (!(p->value == c.value))
      out = 0;
  }
  return out;
}

/// The first case whose conditions hold: its index, -1 if none holds, -2 if
/// one cannot be decided before a holding one.
constexpr int applying_case(const ParamDef &def, const MatchReport &r) {
  for (std::size_t i = 0; i < def.cases.size(); ++i) {
    int h = holds(def.cases[i].when, r);
    if (h < 0)
      return -2;
    if (h > 0)
      return static_cast<int>(i);
  }
  return -1;
}

constexpr bool contains(const ParamValues &set, const ParamValue &v) {
  for (const ParamValue &x : set)
    if (x == v)
      return true;
  return false;
}

constexpr void resolve_params(const Contract &c, const Site &s,
                              MatchReport &r) {
  for (const ParamArg &a : s.params) {
    bool known = false;
    for (const ParamDef &d : c.params)
      known = known || d.name == a.name;
    if (!known) {
      Reason why = reason(ReasonKind::param_unknown, a.name);
      why.value = a.value;
      add(r, why);
    }
  }
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    const ParamDef &d = c.params[i];
    const int index = static_cast<int>(i);
    ResolvedParam p{d.name, {}, ParamSource::missing, false};
    const ParamArg *given = nullptr;
    for (const ParamArg &a : s.params)
      if (a.name == d.name)
        given = &a;
    bool bad = false;
    if (given != nullptr && given->value.kind != d.kind) {
      Reason why = reason(ReasonKind::param_type, d.name, index);
      why.value = given->value;
      add(r, why);
      given = nullptr;
      bad = true;
    }
    const int k = applying_case(d, r);
    const ParamCase *pc = k >= 0 ? &d.cases[k] : nullptr;
    if (d.derived) {
      if (pc != nullptr && !pc->allowed.empty()) {
        p.value = pc->allowed[0];
        p.source = ParamSource::derived;
        if (given != nullptr && !(given->value == p.value)) {
          Reason why = reason(ReasonKind::param_derived, d.name, index);
          why.variant = k;
          why.value = given->value;
          why.expected_value = p.value;
          add(r, why);
          bad = true;
        }
      }
    } else if (given != nullptr) {
      p.value = given->value;
      p.source = ParamSource::given;
    } else if (pc != nullptr && pc->has_default) {
      p.value = pc->default_value;
      p.source = ParamSource::case_default;
    } else if (pc != nullptr && pc->allowed.size() == 1) {
      p.value = pc->allowed[0];
      p.source = ParamSource::case_default;
    } else if (d.has_default) {
      p.value = d.default_value;
      p.source = ParamSource::def_default;
    } else if (!bad && k != -2) {
      add(r, reason(ReasonKind::param_missing, d.name, index));
      bad = true;
    }
    if (p.source != ParamSource::missing) {
      auto fail = [&](ParamPredicate what) {
        Reason why = reason(ReasonKind::param_predicate, d.name, index);
        why.predicate = what;
        why.value = p.value;
        add(r, why);
        bad = true;
      };
      if (d.has_range && p.value.kind == ParamKind::integer) {
        if (p.value.integer < d.lo)
          fail(ParamPredicate::lo);
        if (p.value.integer > d.hi)
          fail(ParamPredicate::hi);
        if (d.step > 1 && p.value.integer % d.step != 0)
          fail(ParamPredicate::step);
      }
      if (!d.allowed.empty() && !contains(d.allowed, p.value))
        fail(ParamPredicate::allowed);
      if (pc != nullptr && !d.derived && !pc->allowed.empty() &&
          !contains(pc->allowed, p.value)) {
        Reason why = reason(ReasonKind::param_case, d.name, index);
        why.variant = k;
        why.value = p.value;
        add(r, why);
        bad = true;
      }
    }
    p.valid = !bad && p.source != ParamSource::missing;
    r.params.push_back(p);
  }
}

/// The integer parameters as bindings, so that `n` and `k` substitute.
constexpr Bindings param_bindings(const MatchReport &r) {
  Bindings b;
  for (const ResolvedParam &p : r.params)
    if (p.valid && p.value.kind == ParamKind::integer)
      b.values.push_back({p.name, p.value.integer});
  return b;
}

/// `t` with the symbols bound in `b` replaced, the others kept.
constexpr IntTuple substitute_known(const IntTuple &t, const Bindings &b) {
  IntTuple out = t;
  for (int i = 0; i < t.leaf_count(); ++i) {
    const Int &leaf = t.leaf_at(i);
    if (!leaf.is_symbolic() || leaf.variadic)
      continue;
    Result<std::int64_t> v = b.value(leaf.symbol.view());
    if (v)
      out.set_leaf(i, Int(*v));
  }
  return out;
}

//===- Flat modes: layouts as plain numbers --------------------------------===//

/// One leaf of a layout with its values and axis binding.
struct Leaf {
  std::int64_t extent = 1;
  std::int64_t stride = 0;
  AxisRef axis{};
};

inline constexpr int max_mode_leaves = 16;

/// The leaves of one logical mode, in written (lexicographic) order.
struct ModeLeaves {
  Leaf leaf[max_mode_leaves] = {};
  int count = 0;
  constexpr bool push(const Leaf &l) {
    if (count == max_mode_leaves)
      return false;
    leaf[count++] = l;
    return true;
  }
  constexpr std::int64_t size() const {
    std::int64_t n = 1;
    for (int i = 0; i < count; ++i)
      n *= leaf[i].extent;
    return n;
  }
};

/// Top-level modes of an operand: TMA boxes have up to 5 (rank_max 5), and
/// a few more group so that a deeper box meets its rank limit, not this.
inline constexpr int max_modes = 8;

struct Modes {
  ModeLeaves mode[max_modes] = {};
  int count = 0;
};

/// The leaves of `l` grouped into the top-level modes of `shape`: by `l`'s
/// own modes when their sizes are those of `shape`, else greedily (the
/// flat accumulator (2,4,2,8,32,4,2) over shape (128,256) groups as
/// ((2,4,2,8),(32,4,2))). `axes` (may be null) gives the leaves' bindings.
constexpr Result<Modes> group_modes(const Layout &l, const IntTuple &shape,
                                    const FixedVector<AxisRef, max_shard_leaves> *axes) {
  Result<FlatLeaves> flat = flat_leaves(l);
  if (!flat)
    return flat.error();
  const int rank = shape.is_leaf() ? 1 : shape.rank();
  if (rank > max_modes)
    return make_error(Errc::capacity, "an operand has at most {} modes",
                      max_modes);
  std::int64_t want[max_modes] = {};
  for (int i = 0; i < rank; ++i) {
    Result<std::int64_t> n = product(shape.mode(i));
    if (!n)
      return n.error();
    want[i] = *n;
  }
  // Leaves per top-level mode of l, if its modes have the shape's sizes.
  int per_mode[max_modes] = {};
  bool by_modes = !l.shape.is_leaf() && l.rank() == rank;
  for (int i = 0; by_modes && i < rank; ++i) {
    Result<std::int64_t> n = product(l.shape.mode(i));
    by_modes = n && *n == want[i];
    per_mode[i] = l.shape.mode(i).leaf_count();
  }
  Modes out;
  out.count = rank;
  int at = 0;
  for (int i = 0; i < rank; ++i) {
    std::int64_t have = 1;
    int taken = 0;
    while (at < flat->count &&
           (by_modes ? taken < per_mode[i]
                     : (have < want[i] || flat->extent[at] == 1) &&
                           (have != want[i] || i == rank - 1 ||
                            flat->extent[at] == 1))) {
      Leaf leaf{flat->extent[at], flat->stride[at], {}};
      if (axes != nullptr)
        leaf.axis = (*axes)[at];
      if (!out.mode[i].push(leaf))
        return make_error(Errc::capacity, "a mode has more than {} leaves",
                          max_mode_leaves);
      have *= flat->extent[at];
      ++at;
      ++taken;
      if (!by_modes && have > want[i])
        break;
    }
    if (have != want[i])
      return make_error(Errc::mismatch,
                        "the layout's leaves do not group into mode {} of "
                        "extent {}",
                        i, want[i]);
  }
  if (at != flat->count)
    return make_error(Errc::mismatch,
                      "the layout has {} leaves left over after the shape's "
                      "modes",
                      flat->count - at);
  return out;
}

/// Mode `m` split as logical_divide(m, a:1): the tile is the first `a`
/// indices (the trailing leaves, lexicographically), the rest the others.
struct SplitMode {
  ModeLeaves tile{};
  ModeLeaves rest{};
};

/// Errc::mismatch if `a` does not divide the mode, Errc::precondition if a
/// leaf bound to the mesh would have to be split.
constexpr Result<SplitMode> split_mode(const ModeLeaves &m, std::int64_t a) {
  SplitMode out;
  ModeLeaves tile_rev; // collected from the last leaf
  std::int64_t have = 1;
  int j = m.count - 1;
  for (; j >= 0 && have < a; --j) {
    const Leaf &l = m.leaf[j];
    std::int64_t need = a / have;
    if (a % have != 0)
      return make_error(Errc::mismatch, "atom extent {} is not a multiple of {}",
                        a, have);
    if (l.extent <= need) {
      tile_rev.push(l);
      have *= l.extent;
      continue;
    }
    if (l.extent % need != 0)
      return make_error(Errc::mismatch,
                        "leaf {} of extent {} cannot be split into {}", j,
                        l.extent, need);
    if (l.axis.bound())
      return make_error(Errc::precondition,
                        "leaf {} is bound to the mesh; splitting it into {} "
                        "would split a mesh axis",
                        j, need);
    tile_rev.push(Leaf{need, l.stride, l.axis});
    out.rest.push(Leaf{l.extent / need, l.stride * need, l.axis});
    have *= need;
    --j;
    break;
  }
  if (have != a)
    return make_error(Errc::mismatch, "the mode has {} elements, not a multiple "
                                      "of {}",
                      m.size(), a);
  // Rest: the leaves before j (inclusive), then the split high part.
  ModeLeaves rest;
  for (int i = 0; i <= j; ++i)
    rest.push(m.leaf[i]);
  for (int i = 0; i < out.rest.count; ++i)
    rest.push(out.rest.leaf[i]);
  out.rest = rest;
  for (int i = tile_rev.count - 1; i >= 0; --i)
    out.tile.push(tile_rev.leaf[i]);
  return out;
}

/// The layout of modes (one tuple per mode; one leaf per single-leaf mode).
constexpr Layout modes_layout(const ModeLeaves *modes, int count) {
  Layout out;
  for (int i = 0; i < count; ++i) {
    if (modes[i].count == 0) { // nothing left: one fragment along this mode
      out.shape.push_back(IntTuple(1));
      out.stride.push_back(IntTuple(0));
      continue;
    }
    if (modes[i].count == 1) {
      out.shape.push_back(IntTuple(modes[i].leaf[0].extent));
      out.stride.push_back(IntTuple(modes[i].leaf[0].stride));
      continue;
    }
    IntTuple s, d;
    for (int k = 0; k < modes[i].count; ++k) {
      s.push_back(IntTuple(modes[i].leaf[k].extent));
      d.push_back(IntTuple(modes[i].leaf[k].stride));
    }
    out.shape.push_back(s);
    out.stride.push_back(d);
  }
  return out;
}

/// The concrete mode `m` re-expressed with the extents `target` (a pattern
/// mode with its extents known): adjacent contiguous leaves are merged,
/// extent-1 leaves dropped, then leaves are cut to the target's extents from
/// the last. Fails if a target leaf would span non-contiguous leaves.
constexpr Result<ModeLeaves> reshape_mode(const ModeLeaves &m,
                                          const std::int64_t *target,
                                          int targets) {
  ModeLeaves merged;
  for (int i = 0; i < m.count; ++i) {
    const Leaf &l = m.leaf[i];
    if (l.extent == 1)
      continue;
    merged.push(l);
  }
  // Coalesce pairs (prev, l) with prev.stride == l.extent * l.stride.
  ModeLeaves co;
  for (int i = 0; i < merged.count; ++i) {
    Leaf l = merged.leaf[i];
    if (co.count > 0) {
      Leaf &prev = co.leaf[co.count - 1];
      if (prev.stride == l.extent * l.stride) {
        prev.extent *= l.extent;
        prev.stride = l.stride;
        continue;
      }
    }
    co.push(l);
  }
  ModeLeaves out;
  out.count = targets;
  int j = co.count - 1;
  std::int64_t left = j >= 0 ? co.leaf[j].extent : 1;
  for (int t = targets - 1; t >= 0; --t) {
    std::int64_t e = target[t];
    if (e == 1) {
      out.leaf[t] = Leaf{1, 0, {}};
      continue;
    }
    if (j < 0 || left % e != 0)
      return make_error(Errc::mismatch,
                        "the fragment cannot be written with extent {} at "
                        "leaf {} of the pattern's mode",
                        e, t);
    std::int64_t used = co.leaf[j].extent / left; // already consumed factor
    out.leaf[t] = Leaf{e, co.leaf[j].stride * used, {}};
    left /= e;
    if (left == 1) {
      --j;
      left = j >= 0 ? co.leaf[j].extent : 1;
    }
  }
  if (j >= 0)
    return make_error(Errc::mismatch,
                      "the fragment's mode has more elements than the "
                      "pattern's");
  return out;
}

//===- Unifying one fragment with one arrangement -------------------------===//

struct LayoutCheck {
  bool ok = false;
  LayoutProblem problem = LayoutProblem::none;
  MatchFailure failure{};
  bool in_mesh = false;
  Bindings bindings{};
  /// The fragment as compared.
  ComposedLayout compared{};
  Error error{};
};

constexpr bool bind_or_compare(Bindings &b, const Int &pattern,
                               std::int64_t value, MatchItem item, int leaf,
                               MatchFailure &f) {
  return unify_int(b, pattern, value, item, leaf, f);
}

/// Unifies a swizzled or plain fragment with a `layout` arrangement, mode by
/// mode: the pattern's unknown extents are solved from the mode sizes (one
/// per mode), the fragment is reshaped to the pattern's extents, then the
/// strides unify (symbols such as `sbo` bind) and the offset. `shapes`
/// (may be null): the site's shape symbols, bound before the pattern's own.
constexpr LayoutCheck unify_composed(const ComposedLayout &pattern,
                                     const ComposedLayout &frag,
                                     const Modes &frag_modes,
                                     const Bindings &params,
                                     const Bindings *shapes = nullptr) {
  LayoutCheck out;
  out.compared = frag;
  out.bindings = params;
  if (shapes != nullptr) {
    for (const Binding &b : shapes->values)
      if (!out.bindings.value(b.name.view()))
        out.bindings.values.push_back(b);
    for (const TupleBinding &b : shapes->tuples)
      if (!out.bindings.leaves(b.name.view()))
        out.bindings.tuples.push_back(b);
  }
  if (!(pattern.swizzle == frag.swizzle)) {
    out.problem = LayoutProblem::swizzle;
    return out;
  }
  IntTuple pshape = substitute_known(pattern.layout.shape, params);
  IntTuple pstride = substitute_known(pattern.layout.stride, params);
  // A pattern with a variadic (TMA's gmem box (*e,w):(*d,1), any rank):
  // its leaves unify with the fragment's flat leaves, as a mesh's do.
  bool variadic = false;
  for (int j = 0; j < pshape.leaf_count(); ++j)
    variadic = variadic || pshape.leaf_at(j).variadic;
  if (variadic) {
    if (!detail::unify_layout(out.bindings, Layout{pshape, pstride},
                              frag.layout, out.failure)) {
      out.problem = out.failure.item == MatchItem::pattern
                        ? LayoutProblem::malformed
                        : LayoutProblem::unify;
      out.error = out.failure.detail;
      return out;
    }
    Result<std::int64_t> offset = frag.offset.get();
    if (!offset) {
      out.problem = LayoutProblem::malformed;
      out.error = offset.error();
      return out;
    }
    if (!unify_int(out.bindings, pattern.offset, *offset, MatchItem::offset,
                   -1, out.failure)) {
      out.problem = pattern.offset.is_symbolic() ? LayoutProblem::unify
                                                 : LayoutProblem::offset;
      return out;
    }
    out.ok = true;
    return out;
  }
  const int rank = pshape.is_leaf() ? 1 : pshape.rank();
  if (rank != frag_modes.count) {
    out.problem = LayoutProblem::unify;
    out.failure = {MatchItem::leaf_count, -1, rank, frag_modes.count, {}, {},
                   false, false, {}};
    return out;
  }
  // First solve the extents and reshape every mode, then unify strides,
  // so that a failure can show the whole fragment as compared.
  ModeLeaves reshaped[max_modes] = {};
  std::int64_t exts[max_modes][max_mode_leaves] = {};
  Layout compared;
  int leaf_base = 0;
  for (int i = 0; i < rank; ++i) {
    IntTuple ms = pshape.is_leaf() ? pshape : pshape.mode(i);
    IntTuple md = pstride.is_leaf() ? pstride : pstride.mode(i);
    const int n = ms.leaf_count();
    if (n > max_mode_leaves) {
      out.problem = LayoutProblem::malformed;
      out.error = make_error(Errc::capacity, "pattern mode too deep");
      return out;
    }
    std::int64_t *ext = exts[i];
    std::int64_t known = 1;
    int unknown = -1;
    for (int k = 0; k < n; ++k) {
      const Int &e = ms.leaf_at(k);
      if (e.is_symbolic()) {
        Result<std::int64_t> v = out.bindings.value(e.symbol.view());
        if (v) {
          ext[k] = *v;
          known *= *v;
        } else if (unknown >= 0) {
          out.problem = LayoutProblem::malformed;
          out.error = make_error(Errc::precondition,
                                 "pattern mode {} has two unknown extents", i);
          return out;
        } else {
          unknown = k;
        }
      } else {
        ext[k] = e.value;
        known *= e.value;
      }
    }
    const std::int64_t size = frag_modes.mode[i].size();
    if (unknown >= 0) {
      if (known == 0 || size % known != 0) {
        out.problem = LayoutProblem::unify;
        out.failure = {MatchItem::extent, leaf_base + unknown, known, size,
                       {}, {}, false, false, {}};
        return out;
      }
      ext[unknown] = size / known;
      if (!detail::bind(out.bindings, ms.leaf_at(unknown).symbol,
                        ext[unknown], leaf_base + unknown, out.failure)) {
        out.problem = LayoutProblem::unify;
        return out;
      }
    } else if (known != size) {
      out.problem = LayoutProblem::unify;
      out.failure = {MatchItem::extent, leaf_base, known, size, {}, {}, false,
                     false, {}};
      return out;
    }
    Result<ModeLeaves> r = reshape_mode(frag_modes.mode[i], ext, n);
    if (!r) {
      out.problem = LayoutProblem::unify;
      out.failure.item = MatchItem::leaf_count;
      out.failure.expected = n;
      out.failure.found = frag_modes.mode[i].count;
      out.error = r.error();
      return out;
    }
    reshaped[i] = *r;
    // Write the reshaped mode with the pattern's structure.
    IntTuple cs = ms, cd = md;
    for (int k = 0; k < n; ++k) {
      cs.set_leaf(k, Int(r->leaf[k].extent));
      cd.set_leaf(k, Int(r->leaf[k].stride));
    }
    compared.shape.push_back(cs);
    compared.stride.push_back(cd);
    leaf_base += n;
  }
  out.compared.layout = compared;
  if (pshape.is_leaf()) {
    out.compared.layout.shape = compared.shape.mode(0);
    out.compared.layout.stride = compared.stride.mode(0);
  }
  leaf_base = 0;
  for (int i = 0; i < rank; ++i) {
    IntTuple md = pstride.is_leaf() ? pstride : pstride.mode(i);
    const int n = md.leaf_count();
    for (int k = 0; k < n; ++k) {
      if (exts[i][k] == 1)
        continue; // the stride of an extent-1 leaf means nothing
      if (!bind_or_compare(out.bindings, md.leaf_at(k),
                           reshaped[i].leaf[k].stride, MatchItem::stride,
                           leaf_base + k, out.failure)) {
        out.problem = LayoutProblem::unify;
        return out;
      }
    }
    leaf_base += n;
  }
  Result<std::int64_t> offset = frag.offset.get();
  if (!offset) {
    out.problem = LayoutProblem::malformed;
    out.error = offset.error();
    return out;
  }
  if (!unify_int(out.bindings, pattern.offset, *offset, MatchItem::offset, -1,
                 out.failure)) {
    out.problem = pattern.offset.is_symbolic() ? LayoutProblem::unify
                                               : LayoutProblem::offset;
    return out;
  }
  out.ok = true;
  return out;
}

/// Unifies a ShardLayout fragment with a `shard` arrangement.
constexpr LayoutCheck unify_shard(const ShardLayout &pattern,
                                  const ShardLayout &frag,
                                  const Bindings &params,
                                  const Bindings *shapes = nullptr) {
  LayoutCheck out;
  out.compared.layout = frag.layout;
  ShardLayout p = pattern;
  p.layout.shape = substitute_known(p.layout.shape, params);
  p.layout.stride = substitute_known(p.layout.stride, params);
  if (shapes != nullptr) {
    p.layout.shape = substitute_known(p.layout.shape, *shapes);
    p.layout.stride = substitute_known(p.layout.stride, *shapes);
  }
  ShardMatch m = match(p, frag);
  if (!m) {
    out.problem = LayoutProblem::unify;
    out.failure = m.failure;
    out.in_mesh = m.in_mesh;
    return out;
  }
  out.bindings = m.bindings;
  out.ok = true;
  return out;
}

//===- Operands -----------------------------------------------------------===//

constexpr bool dtype_ok(const DTypeRule &rule, DType t, const MatchReport &r,
                        DType &expected) {
  switch (rule.kind) {
  case DTypeRule::Kind::any:
    return true;
  case DTypeRule::Kind::fixed:
    expected = rule.dtype;
    return t == rule.dtype;
  case DTypeRule::Kind::of_param: {
    const ParamValue *v = nullptr;
    for (const ResolvedParam &p : r.params)
      if (p.name == rule.param && p.valid)
        v = &p.value;
    if (v == nullptr || v->kind != ParamKind::dtype)
      return true; // an invalid parameter: its own reason says it
    expected = v->dtype;
    return t == v->dtype;
  }
  case DTypeRule::Kind::one_of:
    for (DType x : rule.set)
      if (x == t)
        return true;
    expected = rule.set.empty() ? t : rule.set[0];
    return false;
  }
  return true;
}

/// Whether two meshes are the same units in the same arrangement (leaves,
/// offset and level; grouping and names aside).
constexpr bool same_units(const Mesh &a, const Mesh &b) {
  if (!(a.level == b.level) || !(a.offset == b.offset))
    return false;
  Result<FlatLeaves> x = flat_leaves(a.layout);
  Result<FlatLeaves> y = flat_leaves(b.layout);
  if (!x || !y || x->count != y->count)
    return false;
  for (int i = 0; i < x->count; ++i)
    if (x->extent[i] != y->extent[i] || x->stride[i] != y->stride[i])
      return false;
  return true;
}

/// The mesh without the leaves marked in `drop` (modes left empty vanish
/// with their names), and for each kept leaf its new index.
constexpr Mesh drop_mesh_leaves(const Mesh &m, const bool *drop,
                                int *new_index) {
  Mesh out{m.level, Layout{}, m.offset, {}};
  int at = 0, kept = 0;
  for (int i = 0; i < m.rank(); ++i) {
    Layout mode = m.layout.mode(i);
    Result<FlatLeaves> leaves = flat_leaves(mode);
    IntTuple s, d;
    int n = 0;
    for (int k = 0; leaves && k < leaves->count; ++k, ++at) {
      if (drop[at]) {
        new_index[at] = -1;
        continue;
      }
      new_index[at] = kept++;
      s.push_back(IntTuple(leaves->extent[k]));
      d.push_back(IntTuple(leaves->stride[k]));
      ++n;
    }
    if (n == 0)
      continue;
    if (n == 1 && mode.shape.is_leaf()) {
      s = s.mode(0);
      d = d.mode(0);
    }
    out.layout.shape.push_back(s);
    out.layout.stride.push_back(d);
    if (!m.axes.empty())
      out.axes.push_back(m.axes[i]);
  }
  return out;
}

/// A shard fragment normalised for unification: adjacent unbound leaves of
/// one mode that are contiguous merge, unbound extent-1 leaves vanish.
constexpr void normalise_shard_mode(ModeLeaves &m) {
  ModeLeaves out;
  for (int i = 0; i < m.count; ++i) {
    Leaf l = m.leaf[i];
    if (!l.axis.bound() && l.extent == 1)
      continue;
    if (out.count > 0) {
      Leaf &prev = out.leaf[out.count - 1];
      if (!prev.axis.bound() && !l.axis.bound() &&
          prev.stride == l.extent * l.stride) {
        prev.extent *= l.extent;
        prev.stride = l.stride;
        continue;
      }
    }
    out.push(l);
  }
  m = out;
}

/// Everything the operand checks need to know about one operand.
struct OperandCheck {
  int pattern = -1;
  const SiteOperand *site = nullptr;
  bool present = false;
};

/// Whether the leaves, read in order across the modes, are the compact
/// row-major layout of their extents (extent-1 leaves aside).
constexpr bool is_row_major(const Modes &m) {
  std::int64_t expect = 1;
  for (int i = m.count - 1; i >= 0; --i)
    for (int k = m.mode[i].count - 1; k >= 0; --k) {
      const Leaf &l = m.mode[i].leaf[k];
      if (l.extent == 1)
        continue;
      if (l.stride != expect)
        return false;
      expect *= l.extent;
    }
  return true;
}

/// Checks operand limits of operand `name` on the site operand; for an MMA
/// operand, the shapes are one atom's fragment (`fragment_shape`): an AMX
/// tile's 16 rows bound each TDPBF16PS, not the tile it is repeated over.
constexpr void check_limits(const Contract &c, const SiteOperand &o,
                            MatchReport &r, const Layout *rest,
                            const IntTuple *fragment_shape = nullptr) {
  const IntTuple &shape = fragment_shape != nullptr ? *fragment_shape : o.shape;
  for (std::size_t i = 0; i < c.limits.size(); ++i) {
    const OperandLimit &l = c.limits[i];
    if (!(l.operand == o.name) || holds(l.when, r) <= 0)
      continue;
    const int rank = shape.is_leaf() ? 1 : shape.rank();
    std::int64_t found = 0;
    bool fails = false;
    using K = OperandLimit::Kind;
    switch (l.kind) {
    case K::mode_extent_max: {
      if (l.mode >= rank)
        break;
      Result<std::int64_t> e = product(shape.mode(l.mode));
      found = e ? *e : 0;
      fails = e && *e > l.value;
      break;
    }
    case K::inner_bytes_min:
    case K::inner_bytes_mult:
    case K::inner_bytes_max: {
      Result<std::int64_t> e = product(shape.mode(rank - 1));
      if (!e)
        break;
      found = *e * bytes(o.dtype);
      fails = l.kind == K::inner_bytes_min   ? found < l.value
              : l.kind == K::inner_bytes_max ? found > l.value
                                             : found % l.value != 0;
      break;
    }
    case K::rank_max:
      found = rank;
      fails = rank > l.value;
      break;
    case K::every_mode_extent_max:
      for (int m = 0; m < rank && !fails; ++m) {
        Result<std::int64_t> e = product(shape.mode(m));
        if (e && *e > l.value) {
          found = *e;
          fails = true;
        }
      }
      break;
    case K::outer_stride_bytes_mult: {
      if (o.kind != OperandLayoutKind::layout &&
          o.kind != OperandLayoutKind::composed)
        break;
      Result<FlatLeaves> fl = flat_leaves(o.layout.layout);
      for (int k = 0; fl && k + 1 < fl->count && !fails; ++k)
        if (fl->extent[k] > 1 && (fl->stride[k] * bytes(o.dtype)) % l.value != 0) {
          found = fl->stride[k] * bytes(o.dtype);
          fails = true;
        }
      break;
    }
    case K::base_align_bytes: {
      if (o.kind != OperandLayoutKind::layout &&
          o.kind != OperandLayoutKind::composed)
        break;
      Result<std::int64_t> off = o.layout.offset.get();
      if (!off)
        break;
      found = *off * bytes(o.dtype);
      fails = found % l.value != 0;
      // Every fragment's start: the rest strides too.
      if (!fails && rest != nullptr) {
        Result<FlatLeaves> rl = flat_leaves(*rest);
        for (int k = 0; rl && k < rl->count && !fails; ++k)
          if (rl->extent[k] > 1 && (rl->stride[k] * bytes(o.dtype)) % l.value != 0) {
            found = found + rl->stride[k] * bytes(o.dtype);
            fails = true;
          }
      }
      break;
    }
    }
    if (fails) {
      Reason why = reason(ReasonKind::operand_limit, o.name, static_cast<int>(i));
      why.expected = l.value;
      why.found = found;
      add(r, why);
    }
  }
}

/// Matches a fragment (or a whole operand) against the applying
/// arrangements of operand pattern `op`; records the fragment or a reason.
constexpr void check_layout(const Contract &c, int op, const SiteOperand &o,
                            const OperandFragment &frag, const Modes &modes,
                            const Bindings &params, const Site &s,
                            MatchReport &r, const Bindings *shapes = nullptr) {
  const OperandPattern &pat = c.operands[op];
  if (pat.layouts.empty()) {
    r.fragments.push_back(frag);
    return;
  }
  int best = -1;
  LayoutCheck best_check;
  int applying = 0, undecided = 0;
  for (std::size_t v = 0; v < pat.layouts.size(); ++v) {
    const LayoutPattern &lp = pat.layouts[v];
    const int h = holds(lp.when, r);
    undecided += h < 0;
    if (h <= 0)
      continue;
    ++applying;
    LayoutCheck chk;
    if (lp.kind == LayoutPatternKind::any) {
      chk.ok = true;
    } else if (lp.kind == LayoutPatternKind::row_major) {
      if (frag.kind != OperandLayoutKind::layout &&
          frag.kind != OperandLayoutKind::composed)
        chk.problem = LayoutProblem::kind;
      else if (!(frag.layout.swizzle == lp.layout.swizzle))
        chk.problem = LayoutProblem::swizzle;
      else if (!is_row_major(modes))
        chk.problem = LayoutProblem::row_major;
      else
        chk.ok = true;
      chk.compared = frag.layout;
    } else if (lp.kind == LayoutPatternKind::same_as) {
      const SiteOperand *other = nullptr;
      for (const SiteOperand &x : s.operands)
        if (x.name == lp.operand)
          other = &x;
      bool same = other != nullptr && other->kind == o.kind &&
                  (o.kind == OperandLayoutKind::shard
                       ? other->shard == o.shard
                       : other->layout == o.layout);
      // A missing operand has its own reason; one given without a layout
      // is not checked, so neither is the comparison with it.
      chk.ok = other == nullptr || other->kind == OperandLayoutKind::none ||
               same;
      chk.problem = LayoutProblem::same_as;
      chk.compared = frag.layout;
    } else if (lp.kind == LayoutPatternKind::shard) {
      if (frag.kind != OperandLayoutKind::shard)
        chk.problem = LayoutProblem::kind;
      else
        chk = unify_shard(lp.shard, frag.shard, params, shapes);
    } else {
      if (frag.kind != OperandLayoutKind::layout &&
          frag.kind != OperandLayoutKind::composed)
        chk.problem = LayoutProblem::kind;
      else
        chk = unify_composed(lp.layout, frag.layout, modes, params, shapes);
    }
    if (chk.ok) {
      OperandFragment f = frag;
      f.variant = static_cast<int>(v);
      // The pattern's own symbols and the site's shape symbols it was
      // started with; the parameters are in r.params.
      for (const Binding &b : chk.bindings.values) {
        bool param = false;
        for (const ResolvedParam &p : r.params)
          param = param || (p.valid && p.name == b.name);
        if (!param)
          f.bindings.values.push_back(b);
      }
      f.bindings.tuples = chk.bindings.tuples;
      r.fragments.push_back(f);
      return;
    }
    // Keep the nearest failure: a unification failure (same swizzle/kind)
    // beats a swizzle or kind mismatch.
    auto rank_of = [](LayoutProblem p) {
      return p == LayoutProblem::unify || p == LayoutProblem::offset ||
                     p == LayoutProblem::row_major ||
                     p == LayoutProblem::same_as
                 ? 2
             : p == LayoutProblem::swizzle                           ? 1
                                                                     : 0;
    };
    if (best < 0 || rank_of(chk.problem) > rank_of(best_check.problem)) {
      best = static_cast<int>(v);
      best_check = chk;
    }
  }
  Reason why = reason(ReasonKind::operand_layout, o.name, op);
  why.expected = applying;
  if (applying == 0) {
    if (undecided > 0)
      return; // an invalid parameter decides; its own reason says so
    why.problem = LayoutProblem::no_variant;
    add(r, why);
    return;
  }
  why.variant = best;
  why.problem = best_check.problem;
  if (best_check.problem == LayoutProblem::same_as)
    why.other = pat.layouts[best].operand;
  why.failure = best_check.failure;
  why.in_mesh = best_check.in_mesh;
  why.error = best_check.error;
  if (frag.kind == OperandLayoutKind::shard) {
    why.sharded = true;
    why.layout.layout = frag.shard.layout;
    why.axes = frag.shard.axes;
    why.mesh = frag.shard.mesh;
  } else {
    why.layout = best_check.problem == LayoutProblem::unify &&
                         best_check.compared.layout.shape.rank() > 0
                     ? best_check.compared
                     : frag.layout;
    if (best_check.problem != LayoutProblem::unify)
      why.layout = frag.layout;
  }
  add(r, why);
}

/// Builds fragment 0 and the rest layout of a site operand by dividing each
/// of its modes by `atom` (one extent per mode; the whole mode when 0), and
/// checks it. `site_mesh` is the mesh a shard must be distributed over.
constexpr void check_operand_layout(const Contract &c, int op,
                                    const SiteOperand &o,
                                    const std::int64_t *atom,
                                    const Site &s, const Bindings &params,
                                    MatchReport &r, RepeatDerivation *repeat,
                                    const bool *group_leaf = nullptr,
                                    const Bindings *shapes = nullptr) {
  const OperandPattern &pat = c.operands[op];
  OperandFragment frag;
  frag.name = o.name;
  frag.pattern = op;
  frag.kind = o.kind;
  auto fail = [&](LayoutProblem p, const Error &e) {
    Reason why = reason(ReasonKind::operand_layout, o.name, op);
    why.problem = p;
    why.error = e;
    if (p == LayoutProblem::other_mesh)
      why.mesh = o.shard.mesh;
    add(r, why);
  };
  if (o.kind == OperandLayoutKind::none) {
    // No layout given (site.hpp): the layout is not checked, only the
    // limits that read the shape.
    check_limits(c, o, r, nullptr);
    return;
  }
  const bool shard = o.kind == OperandLayoutKind::shard;
  if (shard) {
    Result<ShardLayout> ok = check_shard(o.shard);
    if (!ok) {
      fail(LayoutProblem::malformed, ok.error());
      return;
    }
    if (!same_units(o.shard.mesh, s.mesh)) {
      fail(LayoutProblem::other_mesh, {});
      return;
    }
  }
  const Layout &l = shard ? o.shard.layout : o.layout.layout;
  Result<Modes> modes = group_modes(l, o.shape, shard ? &o.shard.axes : nullptr);
  if (!modes) {
    fail(LayoutProblem::grouping, modes.error());
    return;
  }
  Modes tile;
  tile.count = modes->count;
  ModeLeaves rest[max_modes] = {};
  for (int i = 0; i < modes->count; ++i) {
    if (atom == nullptr || atom[i] <= 0) {
      tile.mode[i] = modes->mode[i];
      continue;
    }
    Result<SplitMode> sp = split_mode(modes->mode[i], atom[i]);
    if (!sp) {
      fail(sp.error().code == Errc::precondition ? LayoutProblem::split
                                                 : LayoutProblem::grouping,
           sp.error());
      return;
    }
    tile.mode[i] = sp->tile;
    rest[i] = sp->rest;
  }
  frag.rest = modes_layout(rest, modes->count);
  if (shard) {
    // Fragment 0: the rest leaves bound to the mesh fix their mesh leaves at
    // index 0 (the mesh loses them); unbound rest leaves are other local
    // registers of the same units.
    bool drop[max_int_tuple_nodes] = {};
    int new_index[max_int_tuple_nodes] = {};
    std::int64_t spatial[3] = {1, 1, 1};
    Name axis_name[3] = {};
    for (int i = 0; i < modes->count; ++i)
      for (int k = 0; k < rest[i].count; ++k) {
        const Leaf &leaf = rest[i].leaf[k];
        if (!leaf.axis.bound())
          continue;
        Result<MeshLeafRange> range = resolve(leaf.axis, o.shard.mesh);
        for (int m = range->first; m < range->first + range->count; ++m)
          drop[m] = true;
        if (i < static_cast<int>(pat.atom_modes.size())) {
          int d = pat.atom_modes[i];
          spatial[d] *= leaf.extent;
          if (axis_name[d].empty())
            axis_name[d] = leaf.axis.name.empty() ? Name("@leaf") : leaf.axis.name;
        }
      }
    // Operands agree on the spatial split when they match; the largest
    // (the accumulator's, whose every atom runs on distinct units) speaks.
    for (int d = 0; repeat != nullptr && d < 3; ++d)
      if (spatial[d] > repeat->spatial[d]) {
        repeat->spatial[d] = spatial[d];
        repeat->spatial_axis[d] = axis_name[d];
      }
    // Mesh leaves of the execution mesh's variadic part (`*g`: the other
    // warps or warpgroups) that no tile leaf binds are not part of one
    // atom's instance: either bound by a rest leaf (spatial repeat) or
    // replicated (e.g. A shared by the warps along N).
    if (group_leaf != nullptr) {
      bool tile_bound[max_int_tuple_nodes] = {};
      for (int i = 0; i < tile.count; ++i)
        for (int k = 0; k < tile.mode[i].count; ++k) {
          const Leaf &leaf = tile.mode[i].leaf[k];
          if (!leaf.axis.bound())
            continue;
          Result<MeshLeafRange> range = resolve(leaf.axis, o.shard.mesh);
          for (int m = range->first; m < range->first + range->count; ++m)
            tile_bound[m] = true;
        }
      for (int m = 0; m < static_cast<int>(max_int_tuple_nodes); ++m)
        drop[m] = drop[m] || (group_leaf[m] && !tile_bound[m]);
    }
    Mesh mesh = drop_mesh_leaves(o.shard.mesh, drop, new_index);
    ShardLayout f;
    f.mesh = mesh;
    for (int i = 0; i < tile.count; ++i) {
      normalise_shard_mode(tile.mode[i]);
      for (int k = 0; k < tile.mode[i].count; ++k) {
        Leaf leaf = tile.mode[i].leaf[k];
        if (leaf.axis.bound() && leaf.axis.name.empty())
          leaf.axis.index = new_index[leaf.axis.index];
        f.layout.shape.push_back(IntTuple(leaf.extent));
        f.layout.stride.push_back(IntTuple(leaf.stride));
        f.axes.push_back(leaf.axis);
      }
    }
    frag.shard = f;
  } else {
    frag.layout.swizzle = o.layout.swizzle;
    frag.layout.offset = o.layout.offset;
    frag.layout.layout = modes_layout(tile.mode, tile.count);
  }
  check_layout(c, op, o, frag, tile, params, s, r, shapes);
  const IntTuple atom_shape = modes_layout(tile.mode, tile.count).shape;
  check_limits(c, o, r, &frag.rest, &atom_shape);
}

/// The shape symbols bound so far at a site (non-MMA atoms): one value per
/// symbol and one tuple per variadic for the whole site, whichever operand
/// binds it first (in contract order), with that operand's name.
struct ShapeTable {
  Bindings b{};
  Name value_owner[max_bindings] = {};
  Name tuple_owner[max_bindings] = {};
};

/// `t` (top-level modes) with the symbols and variadics bound in `b`
/// substituted, the others kept: `(*s)` with s = (64,32) is `(64,32)`.
constexpr IntTuple substitute_shape(const IntTuple &t, const Bindings &b) {
  if (t.is_leaf() && !(t.leaf().is_symbolic() && t.leaf().variadic))
    return substitute_known(t, b);
  IntTuple out;
  const int rank = t.is_leaf() ? 1 : t.rank();
  for (int i = 0; i < rank; ++i) {
    IntTuple m = t.is_leaf() ? t : t.mode(i);
    if (m.is_leaf() && m.leaf().is_symbolic() && m.leaf().variadic) {
      Result<IntTuple> v = b.leaves(m.leaf().symbol.view());
      if (v) {
        for (int k = 0; k < v->rank(); ++k)
          out.push_back(v->mode(k));
        continue;
      }
    }
    out.push_back(substitute_known(m, b));
  }
  return out;
}

/// Non-MMA shape check: per top-level mode, the pattern's extent (a number,
/// a parameter, or a symbol) against the site's; a variadic takes the modes
/// where it stands. Symbols and variadics bind once per site: `table` holds
/// what earlier operands bound, and a different value here is refused naming
/// that operand. Returns whether the shape fits; only then are its new
/// bindings added to `table`.
constexpr bool check_shape(const OperandPattern &pat, int op,
                           const SiteOperand &o, const Bindings &params,
                           ShapeTable &table, MatchReport &r) {
  const IntTuple want = substitute_known(pat.shape, params);
  const int prank = want.is_leaf() ? 1 : want.rank();
  const int srank = o.shape.is_leaf() ? 1 : o.shape.rank();
  auto mode_of = [&](int i) { return want.is_leaf() ? want : want.mode(i); };
  int vi = -1;
  for (int i = 0; i < prank; ++i) {
    IntTuple m = mode_of(i);
    if (m.is_leaf() && m.leaf().is_symbolic() && m.leaf().variadic)
      vi = i;
  }
  bool bad = vi >= 0 ? srank < prank - 1 : srank != prank;
  ShapeTable t = table;
  Name by{};            // the other operand whose binding conflicts
  const int taken = srank - (prank - (vi >= 0 ? 1 : 0));
  for (int i = 0, at = 0; !bad && by.empty() && i < prank; ++i) {
    IntTuple m = mode_of(i);
    if (i == vi) {
      // The variadic: the extents of the modes it takes (dynamic ones kept).
      IntTuple ext;
      for (int k = 0; k < taken; ++k, ++at) {
        Result<std::int64_t> have =
            product(o.shape.is_leaf() ? o.shape : o.shape.mode(at));
        ext.push_back(have ? IntTuple(*have) : IntTuple(Int::dynamic()));
      }
      const Name &sym = m.leaf().symbol;
      int found = -1;
      for (std::size_t k = 0; k < t.b.tuples.size(); ++k)
        if (t.b.tuples[k].name == sym)
          found = static_cast<int>(k);
      if (found < 0) {
        if (t.b.tuples.push_back({sym, ext}))
          t.tuple_owner[t.b.tuples.size() - 1] = o.name;
        continue;
      }
      const IntTuple &had = t.b.tuples[found].leaves;
      bool same = had.rank() == ext.rank();
      for (int k = 0; same && k < ext.rank(); ++k) {
        const Int x = had.mode(k).leaf(), y = ext.mode(k).leaf();
        same = !x.has_value() || !y.has_value() || x.value == y.value;
      }
      if (!same) {
        if (t.tuple_owner[found] == o.name)
          bad = true;
        else
          by = t.tuple_owner[found];
      }
      continue;
    }
    Result<std::int64_t> have =
        product(o.shape.is_leaf() ? o.shape : o.shape.mode(at));
    ++at;
    if (!have)
      continue; // dynamic: checked at run time
    if (!m.is_leaf()) {
      Result<std::int64_t> p = product(m);
      bad = p && *p != *have;
    } else if (!m.leaf().is_symbolic()) {
      bad = !m.leaf().has_value() || m.leaf().value != *have;
    } else {
      const Name &sym = m.leaf().symbol;
      int found = -1;
      for (std::size_t k = 0; k < t.b.values.size(); ++k)
        if (t.b.values[k].name == sym)
          found = static_cast<int>(k);
      if (found < 0) {
        if (t.b.values.push_back({sym, *have}))
          t.value_owner[t.b.values.size() - 1] = o.name;
      } else if (t.b.values[found].value != *have) {
        if (t.value_owner[found] == o.name)
          bad = true; // (r,r) with two extents: the shape itself
        else
          by = t.value_owner[found];
      }
    }
  }
  if (bad || !by.empty()) {
    Reason why = reason(ReasonKind::operand_shape, o.name, op);
    // Conflicting: the pattern instantiated by the earlier operands.
    why.expected_shape = by.empty() ? want : substitute_shape(want, table.b);
    why.found_shape = o.shape;
    why.other = by;
    add(r, why);
    return false;
  }
  table = t;
  return true;
}

/// The bit of `s` in a set of storages (Reason::storages).
constexpr std::uint8_t storage_bit(Storage s) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(s));
}

/// dtype and storage of a site operand against pattern `op`; `storages`
/// (a set of storage_bit) are all the applying alternatives' storages, 0:
/// the pattern's own.
constexpr void check_operand_basics(const Contract &c, int op,
                                    const SiteOperand &o, MatchReport &r,
                                    std::uint8_t storages = 0) {
  const OperandPattern &pat = c.operands[op];
  DType expected = o.dtype;
  if (!dtype_ok(pat.dtype, o.dtype, r, expected)) {
    Reason why = reason(ReasonKind::operand_dtype, o.name, op);
    why.expected_dtype = expected;
    why.found_dtype = o.dtype;
    add(r, why);
  }
  if (o.storage != pat.storage) {
    Reason why = reason(ReasonKind::operand_storage, o.name, op);
    why.expected_storage = pat.storage;
    why.found_storage = o.storage;
    why.storages = storages != 0 ? storages : storage_bit(pat.storage);
    add(r, why);
  }
}

/// Everything about an operand of a non-MMA atom: basics, shape (binding
/// the site's shape symbols in `table`), layout (the whole operand is the
/// fragment; its arrangement starts from the parameters and, when the shape
/// fits, the site's shape symbols) and limits.
constexpr void check_operand_whole(const Contract &c, int op,
                                   const SiteOperand &o, const Site &s,
                                   const Bindings &params, ShapeTable &table,
                                   MatchReport &r, std::uint8_t storages = 0) {
  check_operand_basics(c, op, o, r, storages);
  const bool fits = check_shape(c.operands[op], op, o, params, table, r);
  // An operand whose shape does not fit binds its layout's symbols alone
  // (no second reason from the other operands' values).
  check_operand_layout(c, op, o, nullptr, s, params, r, nullptr, nullptr,
                       fits ? &table.b : nullptr);
}

constexpr bool has_atom_shape(const Contract &c) {
  return !c.atom_shape.is_leaf() && c.atom_shape.rank() == 3;
}

} // namespace detail

//===- The engine ----------------------------------------------------------===//

/// Matches `site` against contract `c`; see the file comment.
constexpr MatchReport match(const Contract &c, const Site &s) {
  MatchReport r;
  // Capability.
  if (s.check_capabilities && !c.capability.empty()) {
    bool have = false;
    for (const Name &n : s.capabilities)
      have = have || n == c.capability;
    if (!have)
      detail::add(r, detail::reason(ReasonKind::capability, c.capability));
  }
  // Execution mesh.
  MeshMatch mm = match(c.execution_mesh, s.mesh);
  if (!mm) {
    Reason why = detail::reason(ReasonKind::mesh, s.mesh.level);
    why.failure = mm.failure;
    why.mesh = s.mesh;
    detail::add(r, why);
  } else {
    r.bindings = mm.bindings;
    r.mesh_instance = mm.instance;
  }
  // Parameters.
  detail::resolve_params(c, s, r);
  const Bindings params = detail::param_bindings(r);

  // Operands: the applying alternatives, presence, dtype, storage; for
  // other atoms than MMA also shape and layout (MMA: below, per fragment).
  const bool mma = detail::has_atom_shape(c);
  detail::OperandCheck ops[max_site_operands] = {};
  int op_count = 0;
  // Shape symbols bind once for the whole site (non-MMA atoms).
  detail::ShapeTable shapes;
  for (std::size_t i = 0; i < c.operands.size(); ++i) {
    const Name &name = c.operands[i].name;
    bool seen = false;
    for (std::size_t j = 0; j < i; ++j)
      seen = seen || c.operands[j].name == name;
    if (seen || op_count == static_cast<int>(max_site_operands))
      continue;
    int alts[8] = {};
    int n_alt = 0;
    for (std::size_t j = i; j < c.operands.size() && n_alt < 8; ++j)
      if (c.operands[j].name == name &&
          detail::holds(c.operands[j].when, r) > 0)
        alts[n_alt++] = static_cast<int>(j);
    if (n_alt == 0)
      continue; // not used in this configuration, or undecidable
    std::uint8_t storages = 0; // every applying alternative's storage
    for (int a = 0; a < n_alt; ++a)
      storages |= detail::storage_bit(c.operands[alts[a]].storage);
    const SiteOperand *site = nullptr;
    for (const SiteOperand &o : s.operands)
      if (o.name == name)
        site = &o;
    if (site == nullptr) {
      Reason why = detail::reason(ReasonKind::operand_missing, name, alts[0]);
      why.storages = storages;
      detail::add(r, why);
      ops[op_count++] = {alts[0], nullptr, false};
      continue;
    }
    int chosen = alts[0];
    if (!mma && n_alt > 1) {
      // Alternatives: the storage selects (when one of them has the site's);
      // among those, the first that passes, else the one with the fewest
      // reasons speaks.
      const bool stored = (storages & detail::storage_bit(site->storage)) != 0;
      std::size_t fewest = ~std::size_t(0);
      for (int a = 0; a < n_alt; ++a) {
        if (stored && c.operands[alts[a]].storage != site->storage)
          continue;
        MatchReport t;
        t.params = r.params;
        detail::ShapeTable trial = shapes;
        detail::check_operand_whole(c, alts[a], *site, s, params, trial, t,
                                    storages);
        std::size_t n = t.reasons.size() + t.dropped;
        if (n < fewest) {
          fewest = n;
          chosen = alts[a];
        }
        if (n == 0)
          break;
      }
    }
    ops[op_count++] = {chosen, site, true};
    if (mma)
      detail::check_operand_basics(c, chosen, *site, r, storages);
    else
      detail::check_operand_whole(c, chosen, *site, s, params, shapes, r,
                                  storages);
  }
  for (const SiteOperand &o : s.operands) {
    bool known = false;
    for (const OperandPattern &p : c.operands)
      known = known || p.name == o.name;
    if (!known)
      detail::add(r, detail::reason(ReasonKind::operand_unknown, o.name));
  }
  if (!mma) {
    r.accepted = r.reasons.empty() && r.dropped == 0;
    return r;
  }

  // MMA: tile extents per atom mode, from the operands.
  RepeatDerivation &rep = r.repeat;
  IntTuple atom = detail::substitute_known(c.atom_shape, params);
  bool atom_known = true;
  for (int d = 0; d < 3; ++d) {
    const Int a = atom.mode(d).leaf();
    atom_known = atom_known && a.has_value() && a.value > 0;
    rep.atom[d] = a.has_value() ? a.value : 0;
  }
  Name source[3] = {};
  bool shape_ok[max_site_operands] = {};
  for (int i = 0; i < op_count; ++i) {
    if (!ops[i].present)
      continue;
    const OperandPattern &pat = c.operands[ops[i].pattern];
    const SiteOperand &o = *ops[i].site;
    const int want = static_cast<int>(pat.atom_modes.size());
    const int rank = o.shape.is_leaf() ? 1 : o.shape.rank();
    if (want == 0)
      continue;
    if (rank != want || !has_values(o.shape)) {
      Reason why = detail::reason(ReasonKind::operand_shape, o.name, ops[i].pattern);
      why.expected_shape = detail::substitute_known(pat.shape, params);
      why.found_shape = o.shape;
      detail::add(r, why);
      continue;
    }
    shape_ok[i] = true;
    for (int j = 0; j < want; ++j) {
      int d = pat.atom_modes[j];
      std::int64_t e = *product(o.shape.mode(j));
      if (source[d].empty()) {
        rep.tile[d] = e;
        source[d] = o.name;
      } else if (rep.tile[d] != e) {
        Reason why = detail::reason(ReasonKind::tile_mismatch, o.name, d);
        why.expected = rep.tile[d];
        why.found = e;
        why.other = source[d];
        detail::add(r, why);
        shape_ok[i] = false;
      }
    }
  }
  bool decomposes[3] = {true, true, true};
  for (int d = 0; d < 3; ++d) {
    if (source[d].empty() || rep.atom[d] <= 0) {
      decomposes[d] = false;
      continue;
    }
    if (rep.tile[d] % rep.atom[d] != 0) {
      Reason why = detail::reason(ReasonKind::tile_extent, source[d], d);
      why.expected = rep.atom[d];
      why.found = rep.tile[d];
      detail::add(r, why);
      decomposes[d] = false;
      continue;
    }
    rep.count[d] = rep.tile[d] / rep.atom[d];
  }
  rep.derived = atom_known && decomposes[0] && decomposes[1] && decomposes[2];
  if (rep.derived && !s.repeat.empty()) {
    bool same = s.repeat.size() == 3;
    for (std::size_t d = 0; same && d < 3; ++d)
      same = s.repeat[d] == rep.count[d];
    if (!same) {
      Reason why = detail::reason(ReasonKind::repeat, c.id);
      why.expected_shape = IntTuple{rep.count[0], rep.count[1], rep.count[2]};
      IntTuple written;
      for (std::int64_t x : s.repeat)
        written.push_back(IntTuple(x));
      why.found_shape = written;
      detail::add(r, why);
    }
  }
  // Fragments. The site mesh's leaves that the execution mesh's variadic
  // `*g` took (the other warps / warpgroups).
  bool group_leaf[max_int_tuple_nodes] = {};
  if (mm) {
    const IntTuple &pshape = c.execution_mesh.mesh.layout.shape;
    const int site_leaves = s.mesh.layout.shape.leaf_count();
    for (int j = 0; j < pshape.leaf_count(); ++j)
      if (pshape.leaf_at(j).variadic) {
        const int taken = site_leaves - (pshape.leaf_count() - 1);
        // Only when the site's leaves lined up as written (not with its
        // extent-1 leaves set aside; mesh_match.hpp): then `*g` took these.
        Result<IntTuple> g = r.bindings.leaves(pshape.leaf_at(j).symbol.view());
        if (!g || g->leaf_count() != taken)
          continue;
        for (int m = j; m < j + taken && m < static_cast<int>(max_int_tuple_nodes); ++m)
          group_leaf[m] = true;
      }
  }
  for (int i = 0; i < op_count; ++i) {
    if (!ops[i].present || !shape_ok[i])
      continue;
    const OperandPattern &pat = c.operands[ops[i].pattern];
    std::int64_t per_mode[max_site_operands] = {};
    bool ok = true;
    for (std::size_t j = 0; j < pat.atom_modes.size(); ++j) {
      int d = pat.atom_modes[j];
      ok = ok && decomposes[d];
      per_mode[j] = rep.atom[d];
    }
    if (!ok)
      continue;
    detail::check_operand_layout(c, ops[i].pattern, *ops[i].site, per_mode, s,
                                 params, r, &rep, group_leaf);
  }
  r.accepted = r.reasons.empty() && r.dropped == 0;
  return r;
}

/// Whether `site` may use the atom of contract `c`.
constexpr bool accepts(const Contract &c, const Site &s) {
  return match(c, s).accepted;
}

} // namespace tf
