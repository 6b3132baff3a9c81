//===- tf/contract/describe.hpp - Match reasons and reports as text -------===//
//
// Run-time text for what contract/match.hpp found, one line per reason, as
// `tf candidates` and `tf facts` list them:
//
//   mesh: Mesh(cta, (64,68):(68,1), bm, bn) does not match
//         Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not thread
//   capability: wgmma.mma_async is not among the target's capabilities
//   parameter n: 260 violates n <= 256
//   parameter a_major: Major.MN, but dtype=fp8e4m3 requires Major.K
//   operand A: storage rmem, expected smem (form=SS)
//   tile: M = 100 (operand A) is not a multiple of the atom's M = 64
//   repeat: written (2,2,4), derived (2,1,4)
//
// (the mesh line is one line; it is wrapped here). Not constexpr: these
// build std::string. Nothing here depends on LLVM; the plugin turns the
// lines into diagnostics, `tf facts`/`tf candidates` print them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/match.hpp"
#include "tf/contract/print.hpp"
#include "tf/layout/mesh_text.hpp"

#include <string>

namespace tf {

/// `mesh`, `param_predicate`, ...: the kind's name, for JSON.
inline std::string to_string(ReasonKind k) {
  switch (k) {
  case ReasonKind::capability: return "capability";
  case ReasonKind::mesh: return "mesh";
  case ReasonKind::param_unknown: return "param_unknown";
  case ReasonKind::param_type: return "param_type";
  case ReasonKind::param_missing: return "param_missing";
  case ReasonKind::param_predicate: return "param_predicate";
  case ReasonKind::param_case: return "param_case";
  case ReasonKind::param_derived: return "param_derived";
  case ReasonKind::operand_missing: return "operand_missing";
  case ReasonKind::operand_unknown: return "operand_unknown";
  case ReasonKind::operand_shape: return "operand_shape";
  case ReasonKind::operand_dtype: return "operand_dtype";
  case ReasonKind::operand_storage: return "operand_storage";
  case ReasonKind::operand_layout: return "operand_layout";
  case ReasonKind::operand_limit: return "operand_limit";
  case ReasonKind::tile_mismatch: return "tile_mismatch";
  case ReasonKind::tile_extent: return "tile_extent";
  case ReasonKind::repeat: return "repeat";
  }
  return "?";
}

namespace detail {

inline std::string str(const Name &n) { return std::string(n.view()); }

// Values, sets and conditions print as in `tf facts` (contract/print.hpp).
/// `dtype=bf16, form=SS`; empty for no condition.
inline std::string conditions_text(const Conditions &when) {
  return when.empty() ? std::string() : to_string(when);
}

inline std::string kind_text(ParamKind k) {
  switch (k) {
  case ParamKind::integer: return "an integer";
  case ParamKind::dtype: return "a dtype";
  case ParamKind::choice: return "a choice";
  }
  return "?";
}

/// `gmem`, or every applying alternative's: `gmem, smem or rmem`.
inline std::string storages_text(std::uint8_t set, Storage fallback) {
  std::string names[8];
  int n = 0;
  for (unsigned k = 0; k < 8 && n < 8; ++k)
    if ((set >> k) & 1u)
      names[n++] = std::string(name(static_cast<Storage>(k)));
  if (n <= 1)
    return std::string(name(fallback));
  std::string out;
  for (int i = 0; i < n; ++i)
    out += (i == 0 ? "" : i == n - 1 ? " or " : ", ") + names[i];
  return out;
}

inline bool has_atom_shape_symbol(const Contract &c, int d) {
  return d >= 0 && d < c.atom_shape.rank() &&
         c.atom_shape.mode(d).is_leaf() &&
         c.atom_shape.mode(d).leaf().is_symbolic();
}

inline std::string atom_mode_name(int d) {
  return d == 0 ? "M" : d == 1 ? "N" : d == 2 ? "K" : "?";
}

inline std::string limit_text(const OperandLimit &l) {
  using K = OperandLimit::Kind;
  std::string v = std::to_string(l.value);
  switch (l.kind) {
  case K::mode_extent_max: return "extent of mode " + std::to_string(l.mode) + " <= " + v;
  case K::inner_bytes_min: return "bytes of the innermost mode >= " + v;
  case K::inner_bytes_mult: return "bytes of the innermost mode % " + v + " == 0";
  case K::inner_bytes_max: return "bytes of the innermost mode <= " + v;
  case K::rank_max: return "rank <= " + v;
  case K::base_align_bytes: return "start address % " + v + " == 0";
  case K::every_mode_extent_max: return "extent of every mode <= " + v;
  case K::outer_stride_bytes_mult:
    return "every stride but the innermost, in bytes, % " + v + " == 0";
  }
  return "?";
}

/// An arrangement as the reason quotes it, with its condition.
inline std::string arrangement_text(const LayoutPattern &p) {
  std::string out;
  switch (p.kind) {
  case LayoutPatternKind::any: out = "any layout"; break;
  case LayoutPatternKind::shard: out = to_string(p.shard); break;
  case LayoutPatternKind::layout: out = to_string(p.layout); break;
  case LayoutPatternKind::row_major:
    out = "the row-major layout of the shape";
    if (!p.layout.swizzle.is_identity())
      out += " | " + to_string(p.layout.swizzle);
    break;
  case LayoutPatternKind::same_as: out = "the layout of " + str(p.operand); break;
  }
  if (!p.when.empty())
    out += " (" + conditions_text(p.when) + ")";
  return out;
}

inline std::string layout_kind_text(OperandLayoutKind k) {
  switch (k) {
  case OperandLayoutKind::none: return "no layout";
  case OperandLayoutKind::layout: return "a plain layout";
  case OperandLayoutKind::composed: return "a swizzled layout";
  case OperandLayoutKind::shard: return "a ShardLayout";
  }
  return "?";
}

inline std::string operand_layout_text(const Reason &r, const Contract &c) {
  const OperandPattern *op =
      r.index >= 0 && r.index < static_cast<int>(c.operands.size())
          ? &c.operands[r.index]
          : nullptr;
  const LayoutPattern *lp =
      op != nullptr && r.variant >= 0 &&
              r.variant < static_cast<int>(op->layouts.size())
          ? &op->layouts[r.variant]
          : nullptr;
  const std::string fragment =
      r.sharded ? to_string(r.fragment_shard()) : to_string(r.layout);
  switch (r.problem) {
  case LayoutProblem::none:
    return "layout does not match";
  case LayoutProblem::kind:
    if (lp != nullptr)
      return "needs " +
             std::string(lp->kind == LayoutPatternKind::shard
                             ? "a ShardLayout over the execution mesh"
                             : "a (swizzled) shared-memory layout") +
             ", found " + (r.sharded ? "a ShardLayout" : "another kind of layout");
    return "needs another kind of layout";
  case LayoutProblem::no_variant:
    return "no arrangement applies for these parameters";
  case LayoutProblem::swizzle:
    return "fragment " + fragment + " has " + to_string(r.layout.swizzle) +
           " where " + (lp ? arrangement_text(*lp) : std::string("the arrangement")) +
           " has " + (lp ? to_string(lp->layout.swizzle) : std::string("another")) +
           (r.expected > 1 ? " (nearest of " + std::to_string(r.expected) +
                                 " arrangements)"
                           : "");
  case LayoutProblem::offset:
  case LayoutProblem::unify: {
    std::string why;
    if (lp != nullptr && lp->kind == LayoutPatternKind::shard) {
      ShardMatch m;
      m.failure = r.failure;
      m.in_mesh = r.in_mesh;
      why = describe(m, lp->shard, r.fragment_shard());
      return "fragment " + why +
             (lp->when.empty() ? "" : " (" + conditions_text(lp->when) + ")");
    }
    if (lp != nullptr) {
      why = r.failure.item == MatchItem::leaf_count && r.error.what[0] != '\0'
                ? r.error.message()
                : reason(r.failure, lp->layout.layout, r.layout.layout,
                         lp->layout.offset);
      return "fragment " + fragment + " does not match " +
             arrangement_text(*lp) + ": " + why +
             (r.expected > 1 ? " (nearest of " + std::to_string(r.expected) +
                                   " arrangements)"
                             : "");
    }
    return "fragment " + fragment + " does not match";
  }
  case LayoutProblem::grouping:
    return "its layout does not fit its shape: " + r.error.message();
  case LayoutProblem::split:
    return "cannot be divided into atoms: " + r.error.message();
  case LayoutProblem::other_mesh:
    return "distributed over " + to_string(r.mesh) +
           ", not over the site's mesh";
  case LayoutProblem::malformed:
    return "malformed layout: " + r.error.message();
  case LayoutProblem::row_major:
    return "fragment " + fragment +
           " is not the compact row-major layout of its shape";
  case LayoutProblem::same_as:
    return "its layout differs from operand " + str(r.other) + "'s";
  }
  return "";
}

} // namespace detail

/// One line naming the failing item, e.g. `parameter n: 260 violates n <=
/// 256`.
inline std::string describe(const Reason &r, const Contract &c) {
  using namespace detail;
  const ParamDef *def =
      r.index >= 0 && r.index < static_cast<int>(c.params.size()) &&
              (r.kind == ReasonKind::param_type ||
               r.kind == ReasonKind::param_missing ||
               r.kind == ReasonKind::param_predicate ||
               r.kind == ReasonKind::param_case ||
               r.kind == ReasonKind::param_derived)
          ? &c.params[r.index]
          : nullptr;
  const OperandPattern *op =
      r.index >= 0 && r.index < static_cast<int>(c.operands.size())
          ? &c.operands[r.index]
          : nullptr;
  const std::string subject = str(r.subject);
  switch (r.kind) {
  case ReasonKind::capability:
    return "capability: " + subject + " is not among the target's capabilities";
  case ReasonKind::mesh: {
    MeshMatch m;
    m.failure = r.failure;
    return "mesh: " + describe(m, c.execution_mesh, r.mesh);
  }
  case ReasonKind::param_unknown: {
    std::string known;
    for (std::size_t i = 0; i < c.params.size(); ++i)
      known += (i > 0 ? ", " : "") + str(c.params[i].name);
    return "parameter " + subject + ": not a parameter of " + str(c.id) +
           " (it has " + (known.empty() ? "none" : known) + ")";
  }
  case ReasonKind::param_type:
    return "parameter " + subject + ": " + to_string(r.value) + " is " +
           kind_text(r.value.kind) + ", expected " +
           (def ? kind_text(def->kind) : std::string("another kind"));
  case ReasonKind::param_missing:
    return "parameter " + subject + ": no value given and no default";
  case ReasonKind::param_predicate: {
    std::string v = def ? value_string(r.value, *def) : to_string(r.value);
    std::string pred;
    switch (r.predicate) {
    case ParamPredicate::lo: pred = std::to_string(def->lo) + " <= " + subject; break;
    case ParamPredicate::hi: pred = subject + " <= " + std::to_string(def->hi); break;
    case ParamPredicate::step: pred = subject + " % " + std::to_string(def->step) + " == 0"; break;
    case ParamPredicate::allowed: pred = subject + " in " + set_string(def->allowed, *def); break;
    case ParamPredicate::none: pred = "its predicate"; break;
    }
    return "parameter " + subject + ": " + v + " violates " + pred;
  }
  case ReasonKind::param_case: {
    const ParamCase &pc = def->cases[r.variant];
    std::string need = pc.allowed.size() == 1
                           ? value_string(pc.allowed[0], *def)
                           : subject + " in " + set_string(pc.allowed, *def);
    if (pc.when.empty())
      return "parameter " + subject + ": " + value_string(r.value, *def) +
             " is not allowed; it must be " + need;
    return "parameter " + subject + ": " + value_string(r.value, *def) +
           ", but " + conditions_text(pc.when) + " requires " + need;
  }
  case ReasonKind::param_derived: {
    const ParamCase &pc = def->cases[r.variant];
    return "parameter " + subject + ": " + to_string(r.value) +
           " written, but " +
           (pc.when.empty() ? std::string("the contract")
                            : conditions_text(pc.when)) +
           " derives " + subject + " = " + to_string(r.expected_value);
  }
  case ReasonKind::operand_missing:
    return "operand " + subject + ": missing" +
           (op ? " (expected shape=" + to_string(op->shape) + " storage=" +
                     storages_text(r.storages, op->storage) + ")"
               : std::string());
  case ReasonKind::operand_unknown:
    return "operand " + subject + ": not an operand of " + str(c.id);
  case ReasonKind::operand_shape:
    if (!r.other.empty() && op != nullptr)
      return "operand " + subject + ": shape " + to_string(r.found_shape) +
             " does not fit " + to_string(op->shape) + " = " +
             to_string(r.expected_shape) + " bound by operand " + str(r.other);
    return "operand " + subject + ": shape " + to_string(r.found_shape) +
           " does not fit " + to_string(r.expected_shape);
  case ReasonKind::operand_dtype:
    return "operand " + subject + ": dtype " +
           std::string(name(r.found_dtype)) + ", expected " +
           std::string(name(r.expected_dtype)) +
           (op && op->dtype.kind == DTypeRule::Kind::of_param
                ? " (" + str(op->dtype.param) + "=" +
                      std::string(name(r.expected_dtype)) + ")"
                : std::string());
  case ReasonKind::operand_storage:
    return "operand " + subject + ": storage " +
           std::string(name(r.found_storage)) + ", expected " +
           storages_text(r.storages, r.expected_storage) +
           (op && !op->when.empty() ? " (" + conditions_text(op->when) + ")"
                                    : std::string());
  case ReasonKind::operand_layout:
    return "operand " + subject + ": " + operand_layout_text(r, c);
  case ReasonKind::operand_limit: {
    const OperandLimit *l =
        r.index >= 0 && r.index < static_cast<int>(c.limits.size())
            ? &c.limits[r.index]
            : nullptr;
    return "operand " + subject + ": " +
           (l ? limit_text(*l) : std::string("limit")) + " fails (found " +
           std::to_string(r.found) + ")" +
           (l && !l->source.empty() ? " [" + str(l->source) + "]" : "");
  }
  case ReasonKind::tile_mismatch:
    return "tile: operand " + subject + " has " + atom_mode_name(r.index) +
           " = " + std::to_string(r.found) + " but operand " + str(r.other) +
           " has " + atom_mode_name(r.index) + " = " +
           std::to_string(r.expected);
  case ReasonKind::tile_extent: {
    std::string mode = atom_mode_name(r.index);
    std::string atom = std::to_string(r.expected);
    if (has_atom_shape_symbol(c, r.index))
      atom = to_string(c.atom_shape.mode(r.index)) + " = " + atom;
    return "tile: " + mode + " = " + std::to_string(r.found) + " (operand " +
           subject + ") is " +
           (r.found < r.expected ? "smaller than" : "not a multiple of") +
           " the atom's " + mode + " = " + atom;
  }
  case ReasonKind::repeat:
    return "repeat: written " + to_string(r.found_shape) + ", derived " +
           to_string(r.expected_shape);
  }
  return "";
}

/// The bindings as `p0=128, *g=(2)`.
inline std::string to_string(const Bindings &b) {
  std::string out;
  for (const Binding &v : b.values)
    out += (out.empty() ? "" : ", ") + detail::str(v.name) + "=" +
           std::to_string(v.value);
  for (const TupleBinding &t : b.tuples)
    out += (out.empty() ? "" : ", ") + std::string("*") + detail::str(t.name) +
           "=" + to_string(t.leaves);
  return out;
}

/// The whole report: a head line (`accepted`/`refused`, the atom, the
/// resolved parameters), then one indented line per reason, or, when
/// accepted, the bindings, the repeat and the fragments.
inline std::string describe(const MatchReport &r, const Contract &c) {
  using namespace detail;
  std::string out = std::string(r.accepted ? "accepted" : "refused") + "  " +
                    str(c.id);
  std::string params;
  for (std::size_t i = 0; i < r.params.size(); ++i) {
    const ResolvedParam &p = r.params[i];
    if (p.source == ParamSource::missing)
      continue;
    params += (params.empty() ? "" : ", ") + str(p.name) + "=" +
              to_string(p.value);
  }
  if (!params.empty())
    out += "  " + params;
  out += "\n";
  for (const Reason &why : r.reasons)
    out += "  " + describe(why, c) + "\n";
  if (r.dropped > 0)
    out += "  ... and " + std::to_string(r.dropped) + " more\n";
  if (!r.accepted)
    return out;
  out += "  mesh " + to_string(r.mesh_instance);
  if (!r.bindings.values.empty() || !r.bindings.tuples.empty())
    out += ", " + to_string(r.bindings);
  out += "\n";
  if (r.repeat.derived) {
    const RepeatDerivation &p = r.repeat;
    out += "  repeat (" + std::to_string(p.count[0]) + "," +
           std::to_string(p.count[1]) + "," + std::to_string(p.count[2]) +
           ") = tile (" + std::to_string(p.tile[0]) + "," +
           std::to_string(p.tile[1]) + "," + std::to_string(p.tile[2]) +
           ") / atom (" + std::to_string(p.atom[0]) + "," +
           std::to_string(p.atom[1]) + "," + std::to_string(p.atom[2]) + ")";
    for (int d = 0; d < 3; ++d) {
      if (p.count[d] == 1)
        continue;
      out += "; " + atom_mode_name(d) + ": ";
      if (p.spatial[d] > 1)
        out += std::to_string(p.spatial[d]) + " side by side on " +
               str(p.spatial_axis[d]);
      std::int64_t seq = p.count[d] / p.spatial[d];
      if (seq > 1)
        out += (p.spatial[d] > 1 ? ", " : "") + std::to_string(seq) +
               " one after another";
    }
    out += "\n";
  }
  for (const OperandFragment &f : r.fragments) {
    out += "  " + str(f.name) + ": " +
           (f.kind == OperandLayoutKind::shard ? to_string(f.shard)
                                               : to_string(f.layout));
    if (f.rest.shape.rank() > 0)
      out += ", rest " + to_string(f.rest);
    if (!f.bindings.values.empty())
      out += "; " + to_string(f.bindings);
    out += "\n";
  }
  return out;
}

} // namespace tf
