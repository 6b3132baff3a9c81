//===- test/contracts/helpers.hpp - Building sites in tests ---------------===//
#pragma once

#include "tf/contract/describe.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tf_test {

/// The ShardLayout written `text` (`@name` / `@i` bindings) over `mesh`.
constexpr tf::ShardLayout shard(std::string_view text, const tf::Mesh &mesh) {
  tf::LayoutText t = tf::parse_layout_text(text).value();
  tf::FixedVector<tf::AxisRef, tf::max_shard_leaves> axes = t.axes;
  if (!t.has_axes)
    for (int j = 0; j < t.layout.shape.leaf_count(); ++j)
      axes.push_back(tf::local);
  return tf::make_shard(t.layout, axes, mesh).value();
}

constexpr tf::ComposedLayout smem(std::string_view text) {
  return tf::parse_composed_layout(text).value();
}

/// Every reason of `r`, one per line.
inline std::string reasons(const tf::MatchReport &r, const tf::Contract &c) {
  std::string out;
  for (const tf::Reason &why : r.reasons)
    out += tf::describe(why, c) + "\n";
  return out;
}

/// The reason of kind `k` about `subject` (empty: any), or null.
inline const tf::Reason *find(const tf::MatchReport &r, tf::ReasonKind k,
                              std::string_view subject = {}) {
  for (const tf::Reason &why : r.reasons)
    if (why.kind == k && (subject.empty() || why.subject == subject))
      return &why;
  return nullptr;
}

/// The line describing the reason of kind `k` about `subject`.
inline std::string line(const tf::MatchReport &r, const tf::Contract &c,
                        tf::ReasonKind k, std::string_view subject = {}) {
  const tf::Reason *why = find(r, k, subject);
  return why ? tf::describe(*why, c) : "(no such reason in:\n" + reasons(r, c) + ")";
}

/// Replaces or adds parameter `a` of `s`.
inline void set(tf::Site &s, const tf::ParamArg &a) {
  for (tf::ParamArg &p : s.params)
    if (p.name == a.name) {
      p = a;
      return;
    }
  s.params.push_back(a);
}

inline void drop_param(tf::Site &s, std::string_view name) {
  tf::Site t = s;
  t.params.clear();
  for (const tf::ParamArg &p : s.params)
    if (!(p.name == name))
      t.params.push_back(p);
  s.params = t.params;
}

inline tf::SiteOperand &operand(tf::Site &s, std::string_view name) {
  for (tf::SiteOperand &o : s.operands)
    if (o.name == name)
      return o;
  ADD_FAILURE() << "no operand " << name;
  return s.operands[0];
}

inline void drop_operand(tf::Site &s, std::string_view name) {
  tf::FixedVector<tf::SiteOperand, tf::max_site_operands> kept;
  for (const tf::SiteOperand &o : s.operands)
    if (!(o.name == name))
      kept.push_back(o);
  s.operands = kept;
}

} // namespace tf_test
