//===- test/atoms/site_checks.hpp - Sites through the matching engine -----===//
//
// The copy, element-wise and AMX atoms matched against whole sites with
// tf::match (contract/match.hpp): a table of refused sites, each with the
// ReasonKind it must produce, the exact line describe() prints for it and
// how many reasons the site has in all (no cascades). The tables live in
// the *_sites_test.cpp files; the parametrized test is in
// copy_sites_test.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/describe.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/text.hpp"
#include "tf/layout/text/literal.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>

namespace tf::test {

/// Capabilities of the target architectures, closed over `includes` as the
/// loader computes them (targets/architectures/*.toml); sm90 also lists
/// cp.async.bulk.tensor.multicast, longer than a Name holds.
inline constexpr Name sm80_caps[] = {"mma.sync", "mma.sync.bf16",
                                     "mma.sync.tf32", "mma.sync.int8",
                                     "cp.async", "ldmatrix", "mbarrier",
                                     "redux.sync"};
inline constexpr Name sm90_caps[] = {
    "wgmma.mma_async", "wgmma.fence", "setmaxnreg", "cp.async.bulk",
    "cp.async.bulk.tensor", "cluster",
    "shared.cluster", "mbarrier.expect_tx", "stmatrix", "elect.sync",
    "fence.proxy.async", "mma.sync.fp8", "cvt.fp8", "mma.sync",
    "mma.sync.bf16", "mma.sync.tf32", "mma.sync.int8", "cp.async",
    "ldmatrix", "mbarrier", "redux.sync"};
inline constexpr Name amx_caps[] = {"amx.tile", "amx.bf16", "amx.int8",
                                    "avx512f", "avx512.bf16"};
/// A Xeon without AMX-BF16 (AMX-TILE and AMX-INT8 only).
inline constexpr Name amx_int8_caps[] = {"amx.tile", "amx.int8", "avx512f"};
/// A CPU without AMX at all.
inline constexpr Name avx512_caps[] = {"avx512f", "avx512.bf16"};

/// The H200 GEMM's threads: 3 warpgroups of 128 (producer, 2 consumers).
inline constexpr Mesh threads =
    mesh("thread", IntTuple{3, 128}, "warpgroup", "participant");
/// Its compute mesh threads[1:3, :] as (2,4,8,4).
inline constexpr Mesh compute = threads.sub(range(1, 3), _).reshape(
    IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");
/// The 16 cores of the AMX host.
inline constexpr Mesh cores = mesh("core", IntTuple{16});

/// The ShardLayout written `text` (`@name` / `@i` bindings) over `m`.
constexpr ShardLayout shard(std::string_view text, const Mesh &m) {
  LayoutText t = parse_layout_text(text).value();
  FixedVector<AxisRef, max_shard_leaves> axes = t.axes;
  if (!t.has_axes)
    for (int j = 0; j < t.layout.shape.leaf_count(); ++j)
      axes.push_back(local);
  return make_shard(t.layout, axes, m).value();
}

/// The (possibly swizzled, offset) layout written `text`.
constexpr ComposedLayout composed(std::string_view text) {
  return parse_composed_layout(text).value();
}

inline std::string all_reasons(const MatchReport &r, const Contract &c) {
  std::string out;
  for (const Reason &why : r.reasons)
    out += "  " + describe(why, c) + "\n";
  return out;
}

/// The first reason of kind `k` about `subject` (empty: any), or null.
inline const Reason *find_reason(const MatchReport &r, ReasonKind k,
                                 std::string_view subject = {}) {
  for (const Reason &why : r.reasons)
    if (why.kind == k && (subject.empty() || why.subject == subject))
      return &why;
  return nullptr;
}

inline void set_param(Site &s, const ParamArg &a) {
  for (ParamArg &p : s.params)
    if (p.name == a.name) {
      p = a;
      return;
    }
  s.params.push_back(a);
}

inline void drop_param(Site &s, std::string_view name) {
  FixedVector<ParamArg, max_site_params> kept;
  for (const ParamArg &p : s.params)
    if (!(p.name == name))
      kept.push_back(p);
  s.params = kept;
}

inline SiteOperand &operand(Site &s, std::string_view name) {
  for (SiteOperand &o : s.operands)
    if (o.name == name)
      return o;
  ADD_FAILURE() << "no operand " << name;
  return s.operands[0];
}

inline void drop_operand(Site &s, std::string_view name) {
  FixedVector<SiteOperand, max_site_operands> kept;
  for (const SiteOperand &o : s.operands)
    if (!(o.name == name))
      kept.push_back(o);
  s.operands = kept;
}

/// One refused site: `site()` must be refused with a reason of `kind` about
/// `subject` that describe() prints as `line`, among `count` reasons.
struct Refusal {
  const char *name; ///< the test's name
  const Contract *contract;
  Site (*site)();
  ReasonKind kind;
  const char *subject;
  const char *line;
  int count = 1;
};

inline std::ostream &operator<<(std::ostream &os, const Refusal &r) {
  return os << r.contract->id.view() << " " << r.name;
}

class RefusedSite : public testing::TestWithParam<Refusal> {};

inline std::string refusal_name(const testing::TestParamInfo<Refusal> &info) {
  return info.param.name;
}

} // namespace tf::test
