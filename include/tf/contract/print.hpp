//===- tf/contract/print.hpp - Contracts as text --------------------------===//
//
// Run-time text for instruction contracts, as `tf facts` prints them and as
// diagnostics quote them:
//
//   nv.sm90.Wgmma
//     kind               mma
//     target             nvidia.h200_sxm (device; architectures nvidia.sm90, ...)
//     target capability  wgmma.mma_async (available, from nvidia.sm90)
//     execution mesh     Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0)
//                          predicates:
//                            p0 % 128 == 0
//     parameters
//       n        any value
//                  predicates:
//                    8 <= n <= 256
//     ...
//     operands
//       C  shape=(64,n) dtype=f32 storage=rmem access=read-write, held in 1 arrangement:
//            ShardLayout (...) over Mesh(...)
//
// Conditions print bare values (`form=SS`); allowed values and defaults of a
// choice print with their type (`Major.K`). Not constexpr: these build
// std::string. Nothing here depends on LLVM, so the plugin and the CLI share
// it; the target's side (its architectures, whether it has the capability)
// is passed in as plain data.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"
#include "tf/layout/mesh_text.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tf {

//===- Single items --------------------------------------------------------===//

inline std::string to_string(AtomKind k) {
  switch (k) {
  case AtomKind::mma: return "mma";
  case AtomKind::copy: return "copy";
  case AtomKind::elementwise: return "elementwise";
  case AtomKind::reduce: return "reduce";
  case AtomKind::config: return "config";
  }
  return "?";
}

inline std::string to_string(Access a) {
  switch (a) {
  case Access::read: return "read";
  case Access::write: return "write";
  case Access::read_write: return "read-write";
  }
  return "?";
}

inline std::string to_string(ParamKind k) {
  switch (k) {
  case ParamKind::integer: return "integer";
  case ParamKind::dtype: return "dtype";
  case ParamKind::choice: return "choice";
  }
  return "?";
}

inline std::string to_string(LayoutPatternKind k) {
  switch (k) {
  case LayoutPatternKind::any: return "any";
  case LayoutPatternKind::shard: return "shard";
  case LayoutPatternKind::layout: return "layout";
  case LayoutPatternKind::row_major: return "row_major";
  case LayoutPatternKind::same_as: return "same_as";
  }
  return "?";
}

inline std::string to_string(OperandLimit::Kind k) {
  using K = OperandLimit::Kind;
  switch (k) {
  case K::mode_extent_max: return "mode_extent_max";
  case K::inner_bytes_min: return "inner_bytes_min";
  case K::inner_bytes_mult: return "inner_bytes_mult";
  case K::inner_bytes_max: return "inner_bytes_max";
  case K::rank_max: return "rank_max";
  case K::base_align_bytes: return "base_align_bytes";
  case K::every_mode_extent_max: return "every_mode_extent_max";
  case K::outer_stride_bytes_mult: return "outer_stride_bytes_mult";
  }
  return "?";
}

/// A value as a condition writes it: `256`, `bf16`, `SS`.
inline std::string to_string(const ParamValue &v) {
  switch (v.kind) {
  case ParamKind::integer: return std::to_string(v.integer);
  case ParamKind::dtype: return std::string(name(v.dtype));
  case ParamKind::choice: return std::string(v.choice.view());
  }
  return "?";
}

/// A value of parameter `def` as a domain writes it: choices carry their
/// type, `Major.K`; other values print as in a condition.
inline std::string value_string(const ParamValue &v, const ParamDef &def) {
  if (v.kind == ParamKind::choice && !def.choice_type.empty())
    return std::string(def.choice_type.view()) + "." +
           std::string(v.choice.view());
  return to_string(v);
}

/// `{bf16, f16, fp8e4m3}`.
inline std::string set_string(const ParamValues &values, const ParamDef &def) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i > 0 ? ", " : "") + value_string(values[i], def);
  return out + "}";
}

/// `dtype=bf16, form=SS`; "always" for no condition.
inline std::string to_string(const Conditions &when) {
  if (when.empty())
    return "always";
  std::string out;
  for (std::size_t i = 0; i < when.size(); ++i)
    out += (i > 0 ? ", " : "") + std::string(when[i].param.view()) + "=" +
           to_string(when[i].value);
  return out;
}

/// The predicates of a parameter's own domain, one per line of the listing:
/// `8 <= n <= 256`, `n % 8 == 0`, `dtype in {bf16, f16}`.
inline std::vector<std::string> predicates(const ParamDef &def) {
  std::vector<std::string> out;
  std::string n(def.name.view());
  if (def.has_range) {
    out.push_back(std::to_string(def.lo) + " <= " + n +
                  " <= " + std::to_string(def.hi));
    if (def.step > 1)
      out.push_back(n + " % " + std::to_string(def.step) + " == 0");
  }
  if (!def.allowed.empty())
    out.push_back(n + " in " + set_string(def.allowed, def));
  return out;
}

/// What one case allows: `a_major in {Major.MN, Major.K} (default
/// Major.MN)`, or the single value `Major.K`.
inline std::string allowed_string(const ParamCase &c, const ParamDef &def) {
  std::string out =
      c.allowed.size() == 1
          ? value_string(c.allowed[0], def)
          : std::string(def.name.view()) + " in " + set_string(c.allowed, def);
  if (c.has_default && c.allowed.size() != 1)
    out += " (default " + value_string(c.default_value, def) + ")";
  return out;
}

/// `f32`, the dtype parameter's name (`dtype`), `{bf16, f16}` or `any`.
inline std::string to_string(const DTypeRule &r) {
  switch (r.kind) {
  case DTypeRule::Kind::any: return "any";
  case DTypeRule::Kind::fixed: return std::string(name(r.dtype));
  case DTypeRule::Kind::of_param: return std::string(r.param.view());
  case DTypeRule::Kind::one_of: {
    std::string out = "{";
    for (std::size_t i = 0; i < r.set.size(); ++i)
      out += (i > 0 ? ", " : "") + std::string(name(r.set[i]));
    return out + "}";
  }
  }
  return "?";
}

/// One arrangement: `ShardLayout (4@1,2,...):(...) over Mesh(...)`,
/// `ComposedLayout (8,64):(64,1) | Swizzle(3,4,3)`, `Layout (16,8):(8,1)`,
/// `row-major | Swizzle(3,4,3)`, `same layout as A` or `any layout`.
inline std::string to_string(const LayoutPattern &p) {
  switch (p.kind) {
  case LayoutPatternKind::any: return "any layout";
  case LayoutPatternKind::shard: return "ShardLayout " + to_string(p.shard);
  case LayoutPatternKind::layout:
    return (p.layout.swizzle.is_identity() && p.layout.offset == Int{}
                ? "Layout "
                : "ComposedLayout ") +
           to_string(p.layout);
  case LayoutPatternKind::row_major:
    return "row-major" + (p.layout.swizzle.is_identity()
                              ? std::string(" (compact, any offset)")
                              : " (compact, any offset) | " +
                                    to_string(p.layout.swizzle));
  case LayoutPatternKind::same_as:
    return "same layout as " + std::string(p.operand.view());
  }
  return "?";
}

/// The predicate an operand limit states: `extent of mode 0 <= 256`,
/// `bytes of the innermost mode % 16 == 0`.
inline std::string predicate_string(const OperandLimit &l) {
  using K = OperandLimit::Kind;
  std::string v = std::to_string(l.value);
  switch (l.kind) {
  case K::mode_extent_max:
    return "extent of mode " + std::to_string(l.mode) + " <= " + v;
  case K::inner_bytes_min: return "bytes of the innermost mode >= " + v;
  case K::inner_bytes_mult: return "bytes of the innermost mode % " + v + " == 0";
  case K::inner_bytes_max: return "bytes of the innermost mode <= " + v;
  case K::rank_max: return "rank <= " + v;
  case K::base_align_bytes: return "start address % " + v + " == 0";
  case K::every_mode_extent_max: return "extent of every mode <= " + v;
  case K::outer_stride_bytes_mult:
    return "bytes of every stride but the innermost % " + v + " == 0";
  }
  return "?";
}

/// Whether a contract has an atom shape (MMA atoms do).
inline bool has_atom_shape(const Contract &c) {
  return c.atom_shape.is_leaf() || c.atom_shape.rank() > 0;
}

/// The names of the parameters a case list depends on, in first-use order.
inline std::vector<std::string> case_inputs(const ParamDef &def) {
  std::vector<std::string> out;
  for (const ParamCase &c : def.cases)
    for (const Condition &w : c.when) {
      std::string n(w.param.view());
      bool seen = false;
      for (const std::string &have : out)
        seen = seen || have == n;
      if (!seen)
        out.push_back(n);
    }
  return out;
}

/// The atom modes an MMA operand spans: `(M,K)`; empty for other atoms.
inline std::string atom_modes_string(const OperandPattern &o) {
  if (o.atom_modes.empty())
    return "";
  std::string out = "(";
  for (std::size_t i = 0; i < o.atom_modes.size(); ++i) {
    int m = o.atom_modes[i];
    out += (i > 0 ? "," : "") +
           (m >= 0 && m < 3 ? std::string(1, "MNK"[m]) : std::to_string(m));
  }
  return out + ")";
}

/// `shape=(64,n) dtype=f32 storage=rmem access=read-write`, and for MMA
/// operands the atom modes their shape spans, `modes=(M,N)`.
inline std::string operand_summary(const OperandPattern &o) {
  std::string out = "shape=" + to_string(o.shape) +
                    " dtype=" + to_string(o.dtype) +
                    " storage=" + std::string(name(o.storage)) +
                    " access=" + to_string(o.access);
  if (!o.atom_modes.empty())
    out += " modes=" + atom_modes_string(o);
  return out;
}

//===- The whole listing ---------------------------------------------------===//

/// What `tf facts` knows about the target it was asked about.
struct FactsTarget {
  enum class Capability : std::uint8_t {
    available, ///< an architecture of the target lists it as true
    missing,   ///< no architecture of the target lists it (or lists false)
    none,      ///< the contract requires no capability
  };
  std::string id;
  std::string kind; ///< "device" or "architecture"
  /// The architectures it implements, nearest first (its closure).
  std::vector<std::string> architectures;
  Capability capability = Capability::missing;
  /// The architecture that lists the capability, when available.
  std::string capability_from;
};

namespace detail {

inline std::string join(const std::vector<std::string> &items,
                        std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i > 0 ? std::string(sep) : std::string()) + items[i];
  return out;
}

inline std::string pad(std::string s, std::size_t width) {
  if (s.size() < width)
    s.append(width - s.size(), ' ');
  return s;
}

inline void line(std::string &out, std::size_t indent, const std::string &s) {
  out.append(indent, ' ');
  out += s;
  out += '\n';
}

/// The section head and value of the header block, aligned at column 21.
inline void header(std::string &out, std::string_view head,
                   const std::string &value) {
  line(out, 2, pad(std::string(head), 19) + value);
}

inline void print_param(std::string &out, const ParamDef &def,
                        std::size_t name_width) {
  const std::string first = pad(std::string(def.name.view()), name_width);
  const std::size_t body = 4 + name_width + 2; // where values start
  if (def.cases.empty()) {
    std::string what = def.derived ? "derived" : "any value";
    if (def.has_default)
      what += " (default " + value_string(def.default_value, def) + ")";
    line(out, 4, first + "  " + what);
  } else {
    std::size_t when_width = 0;
    for (const ParamCase &c : def.cases) {
      std::size_t w = to_string(c.when).size();
      when_width = w > when_width ? w : when_width;
    }
    for (std::size_t i = 0; i < def.cases.size(); ++i) {
      const ParamCase &c = def.cases[i];
      std::string when = c.when.empty() && i > 0 ? "otherwise"
                                                 : to_string(c.when);
      std::string row = pad(when, when_width) + "  " + allowed_string(c, def);
      line(out, i == 0 ? 4 : body, (i == 0 ? first + "  " : "") + row);
    }
    if (def.derived)
      line(out, body, "derived from " + join(case_inputs(def), ", ") +
                          "; not written by users");
    else if (def.has_default)
      line(out, body, "default " + value_string(def.default_value, def));
  }
  std::vector<std::string> preds = predicates(def);
  if (preds.empty())
    return;
  line(out, body + 2, "predicates:");
  for (const std::string &p : preds)
    line(out, body + 4, p);
}

inline void print_operand(std::string &out, const OperandPattern &o,
                          std::size_t name_width) {
  std::string head = pad(std::string(o.name.view()), name_width) + "  ";
  if (!o.when.empty())
    head += "when " + to_string(o.when) + ": ";
  head += operand_summary(o);
  std::size_t n = o.layouts.size();
  const std::size_t body = 4 + name_width + 4;
  if (n == 0) {
    line(out, 4, head + ", any layout");
    return;
  }
  line(out, 4, head + ", held in " + std::to_string(n) +
                   (n == 1 ? " arrangement:" : " arrangements:"));
  for (const LayoutPattern &p : o.layouts) {
    line(out, body, to_string(p));
    if (!p.when.empty())
      line(out, body + 2, "when " + to_string(p.when));
    if (!p.source.empty())
      line(out, body + 2, "source: " + std::string(p.source.view()));
  }
}

} // namespace detail

/// The capability line: `wgmma.mma_async (available, from nvidia.sm90)`,
/// `amx.bf16 (missing on nvidia.h200_sxm)`, or the name alone without a
/// target.
inline std::string capability_string(const Contract &c,
                                     const FactsTarget *target) {
  std::string cap = c.capability.empty() ? std::string("(none required)")
                                         : std::string(c.capability.view());
  if (target == nullptr || c.capability.empty())
    return cap;
  if (target->capability == FactsTarget::Capability::available)
    return cap + " (available, from " + target->capability_from + ")";
  return cap + " (missing on " + target->id + ")";
}

/// The whole contract as `tf facts` prints it; `target` may be null.
inline std::string facts_text(const Contract &c,
                              const FactsTarget *target = nullptr) {
  using detail::header;
  using detail::line;
  std::string out;
  line(out, 0, std::string(c.id.view()));
  header(out, "kind", to_string(c.kind));
  if (target == nullptr) {
    header(out, "target", "(none given)");
  } else {
    header(out, "target", target->id + " (" + target->kind + ")");
    header(out, "",
           "architectures: " + (target->architectures.empty()
                                    ? std::string("(none)")
                                    : detail::join(target->architectures,
                                                   ", ")));
  }
  header(out, "target capability", capability_string(c, target));
  if (target != nullptr && !c.capability.empty() &&
      target->capability != FactsTarget::Capability::available)
    header(out, "", "no architecture of " + target->id + " lists " +
                        std::string(c.capability.view()) +
                        "; the atom cannot be used there");
  header(out, "execution mesh", to_string(c.execution_mesh.mesh));
  if (!c.execution_mesh.predicates.empty()) {
    line(out, 23, "predicates:");
    for (const MeshPredicate &p : c.execution_mesh.predicates)
      line(out, 25, to_string(p));
  }
  if (has_atom_shape(c))
    header(out, "atom shape", "M,N,K = " + to_string(c.atom_shape));

  line(out, 2, "parameters" + std::string(c.params.empty() ? "  (none)" : ""));
  std::size_t width = 0;
  for (const ParamDef &p : c.params)
    width = p.name.size() > width ? p.name.size() : width;
  for (const ParamDef &p : c.params)
    detail::print_param(out, p, width);

  line(out, 2, "operands");
  width = 0;
  for (const OperandPattern &o : c.operands)
    width = o.name.size() > width ? o.name.size() : width;
  for (const OperandPattern &o : c.operands)
    detail::print_operand(out, o, width);

  if (!c.limits.empty()) {
    line(out, 2, "limits");
    width = 0;
    for (const OperandLimit &l : c.limits)
      width = l.operand.size() > width ? l.operand.size() : width;
    for (const OperandLimit &l : c.limits) {
      std::string row = detail::pad(std::string(l.operand.view()), width) +
                        "  " + predicate_string(l);
      if (!l.when.empty())
        row += "  when " + to_string(l.when);
      if (!l.source.empty())
        row += "  [" + std::string(l.source.view()) + "]";
      line(out, 4, row);
    }
  }
  return out;
}

} // namespace tf
