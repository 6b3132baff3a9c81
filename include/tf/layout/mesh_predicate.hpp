//===- tf/layout/mesh_predicate.hpp - Conditions on execution meshes ------===//
//
// An instruction contract's execution mesh comes with predicates, printed by
// `tf facts` as:
//   each top-level mode has no backward step
//   each top-level mode reaches each of its own slots exactly once
//   p0 % 128 == 0
// Predicates are data (a kind and a parameter) so that contracts list them,
// the facts report prints them and one checker evaluates them. They are
// checked on a mesh grouped as the contract's pattern groups it (see
// mesh_match.hpp): a WGMMA's ((4,8,4)):((32,4,1)) is one top-level mode.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh.hpp"

#include <cstdint>
#include <string>

namespace tf {

enum class MeshPredicateKind : std::uint8_t {
  /// Walking a top-level mode's coordinates lexicographically, the unit ids
  /// never decrease: mode(k + 1) >= mode(k) for 0 <= k < size(mode) - 1.
  no_backward_step,
  /// A top-level mode is a bijection onto a contiguous block of unit ids:
  /// its image is exactly {min, min + 1, ..., min + size(mode) - 1}.
  each_slot_once,
  /// The offset is a multiple of `modulus`: offset % modulus == 0.
  offset_multiple,
};

struct MeshPredicate {
  MeshPredicateKind kind = MeshPredicateKind::no_backward_step;
  /// The divisor of offset_multiple; unused otherwise.
  std::int64_t modulus = 0;
  /// How offset_multiple names the offset when printed (the pattern's `p0`).
  Name offset_name{};

  friend constexpr bool operator==(const MeshPredicate &,
                                   const MeshPredicate &) = default;
};

/// "each top-level mode has no backward step".
constexpr MeshPredicate no_backward_step() {
  return {MeshPredicateKind::no_backward_step, 0, {}};
}

/// "each top-level mode reaches each of its own slots exactly once".
constexpr MeshPredicate each_slot_once() {
  return {MeshPredicateKind::each_slot_once, 0, {}};
}

/// "`name` % `modulus` == 0", the alignment of the mesh's first unit.
/// @pre modulus > 0
constexpr MeshPredicate offset_multiple_of(std::int64_t modulus,
                                           Name name = "p0") {
  return {MeshPredicateKind::offset_multiple, modulus, name};
}

/// Whether a predicate holds, and if not, why (naming the mode and units).
struct Verdict {
  bool holds = true;
  Error reason{};
  constexpr explicit operator bool() const { return holds; }
};

namespace detail {
constexpr Verdict fails(const Error &e) { return {false, e}; }
} // namespace detail

/// Evaluates `p` on `m`.
/// @pre the parts `p` reads have values: the layout for the mode predicates,
///      the offset for offset_multiple
constexpr Verdict check(const MeshPredicate &p, const Mesh &m) {
  if (p.kind == MeshPredicateKind::offset_multiple) {
    Name name = p.offset_name.empty() ? Name("offset") : p.offset_name;
    if (!m.offset.has_value())
      return detail::fails(make_error(
          Errc::symbolic, "{name} has no value; bind it first", name));
    if (p.modulus <= 0 || m.offset.value % p.modulus != 0) {
      Error e = make_error(Errc::precondition,
                           "{name} = {} is not a multiple of {}",
                           m.offset.value, p.modulus);
      e.name = name;
      return detail::fails(e);
    }
    return {};
  }
  // Reasons name unit ids; a symbolic offset leaves them relative to it.
  std::int64_t base = m.offset.has_value() ? m.offset.value : 0;
  for (int i = 0; i < m.rank(); ++i) {
    // Plain arithmetic over the mode's leaves keeps constant evaluation
    // cheap: Clang's evaluator counts every IntTuple copy.
    Result<FlatLeaves> leaves = flat_leaves(m.layout.mode(i));
    if (!leaves)
      return detail::fails(leaves.error());
    std::int64_t n = 1;
    for (int j = 0; j < leaves->count; ++j)
      n *= leaves->extent[j];
    std::int64_t digit[max_int_tuple_nodes] = {};
    std::int64_t low = 0, previous = 0, value = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      if (p.kind == MeshPredicateKind::no_backward_step && k > 0 &&
          value < previous)
        return detail::fails(make_error(
            Errc::precondition,
            "top-level mode {} steps back from unit {} to unit {}", i,
            base + previous, base + value));
      low = k == 0 || value < low ? value : low;
      previous = value;
      detail::next_coord(*leaves, digit, value);
    }
    if (p.kind != MeshPredicateKind::each_slot_once)
      continue;
    // Second pass (the odometer is back at zero): mark the image relative to
    // its minimum; a value outside [0, n) or a mark already set breaks the
    // bijection onto the block.
    bool *seen = new bool[static_cast<std::size_t>(n > 0 ? n : 1)]();
    Verdict verdict;
    for (std::int64_t k = 0; k < n && verdict.holds; ++k) {
      std::int64_t v = value - low;
      if (v >= n)
        verdict = detail::fails(make_error(
            Errc::precondition,
            "top-level mode {} reaches unit {}, outside its {} slots", i,
            base + value, n));
      else if (seen[v])
        verdict = detail::fails(make_error(
            Errc::precondition, "top-level mode {} reaches unit {} twice", i,
            base + value));
      else
        seen[v] = true;
      detail::next_coord(*leaves, digit, value);
    }
    delete[] seen;
    if (!verdict)
      return verdict;
  }
  return {};
}

/// The predicate as `tf facts` prints it, e.g. "p0 % 128 == 0".
inline std::string to_string(const MeshPredicate &p) {
  switch (p.kind) {
  case MeshPredicateKind::no_backward_step:
    return "each top-level mode has no backward step";
  case MeshPredicateKind::each_slot_once:
    return "each top-level mode reaches each of its own slots exactly once";
  case MeshPredicateKind::offset_multiple:
    break;
  }
  std::string name(p.offset_name.empty() ? std::string_view("offset")
                                         : p.offset_name.view());
  return name + " % " + std::to_string(p.modulus) + " == 0";
}

} // namespace tf
