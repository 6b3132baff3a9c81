//===- tf/layout/reshard.hpp - Checked changes of distribution ------------===//
//
// `reshard` changes how a value is distributed or arranged while its logical
// elements stay the same. Here it is a check and a classification: both
// ShardLayouts must hold the same set of codomain elements, and the plan says
// what the change costs:
//  - identical: every element has the same holders at the same local index;
//  - local permutation: no element reaches a unit that did not hold it, but
//    some unit keeps an element at another local index (or drops a replica);
//  - exchange: some element must reach a unit that did not hold it, which
//    needs communication between units (shuffles, shared memory).
// Both meshes must be on one topology level: unit ids of different levels
// are not comparable, and moving a value between levels (registers of
// threads to a CTA's shared memory) is a storage change that tf writes as a
// copy with its own layouts, not as a reshard.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/shard_layout.hpp"

#include <cstdint>

namespace tf {

enum class ReshardKind : std::uint8_t { identical, local_permutation, exchange };

struct ReshardPlan {
  ReshardKind kind = ReshardKind::identical;
  /// The level both meshes are on.
  Name level{};
  /// Distinct codomain elements held.
  std::int64_t elements = 0;
  /// Elements that must reach at least one unit not holding them before.
  std::int64_t moved = 0;
  /// Elements that stay on their units but change local index or lose a
  /// replica somewhere (and are not moved).
  std::int64_t relocated = 0;
};

/// Checks that `from` and `to` hold the same elements and classifies the
/// change; the error names the first element held by one side only.
/// @pre both have values and the same level
constexpr Result<ReshardPlan> reshard(const ShardLayout &from,
                                      const ShardLayout &to) {
  if (!(from.mesh.level == to.mesh.level))
    return make_error(Errc::mismatch,
                      "cannot reshard across topology levels: the source is "
                      "on level '{name}' and the target is not",
                      from.mesh.level);
  Result<detail::ShardTable> a = detail::shard_table(from);
  if (!a)
    return a.error();
  Result<detail::ShardTable> b = detail::shard_table(to);
  if (!b)
    return b.error();
  Result<std::int64_t> end_a = cosize(from.layout);
  if (!end_a)
    return end_a.error();
  Result<std::int64_t> end_b = cosize(to.layout);
  if (!end_b)
    return end_b.error();
  ReshardPlan plan{ReshardKind::identical, from.mesh.level, 0, 0, 0};
  const std::int64_t end = *end_a > *end_b ? *end_a : *end_b;
  for (std::int64_t e = 0; e < end; ++e) {
    HolderList src, dst;
    bool fits = true;
    auto collect = [&fits](const detail::ShardTable &t, std::int64_t element,
                           HolderList &into) {
      detail::for_each_coord(t, element, [&](const std::int64_t *c) {
        return detail::for_each_replica(
            t, c, [&](std::int64_t unit, std::int64_t local) {
              fits = fits && into.push_back({unit, local});
              return fits;
            });
      });
    };
    collect(*a, e, src);
    collect(*b, e, dst);
    if (!fits)
      return make_error(Errc::capacity, "element {} has more than {} holders",
                        e, static_cast<std::int64_t>(max_holders));
    if (src.empty() != dst.empty())
      return make_error(Errc::mismatch,
                        src.empty() ? "element {} is held by the target but "
                                      "not by the source"
                                    : "element {} is held by the source but "
                                      "not by the target",
                        e);
    if (src.empty())
      continue;
    ++plan.elements;
    bool moves = false, relocates = src.size() != dst.size();
    for (const Holder &h : dst) {
      bool same_unit = false, same_slot = false;
      for (const Holder &g : src) {
        same_unit = same_unit || g.unit == h.unit;
        same_slot = same_slot || g == h;
      }
      moves = moves || !same_unit;
      relocates = relocates || !same_slot;
    }
    if (moves)
      ++plan.moved;
    else if (relocates)
      ++plan.relocated;
  }
  plan.kind = plan.moved > 0       ? ReshardKind::exchange
              : plan.relocated > 0 ? ReshardKind::local_permutation
                                   : ReshardKind::identical;
  return plan;
}

} // namespace tf
