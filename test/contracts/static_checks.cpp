//===- test/contracts/static_checks.cpp - The engine in constant evaluation
//
// Headers can static_assert a match: the engine is constexpr and
// allocation-free. Kept to a few checks so the file compiles quickly.
//
//===----------------------------------------------------------------------===//
#include "seed_site.hpp"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/nv/sm80/mma.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"

#include <gtest/gtest.h>

namespace {

using tf::atoms::nv::sm90::wgmma;

// The H200 GEMM's site: accepted, repeat (2,1,4).
constexpr tf::MatchReport seed_report() { return tf::match(wgmma, seed::gemm_site()); }
static_assert(seed_report().accepted);
static_assert(seed_report().repeat.count[0] == 2 &&
              seed_report().repeat.count[1] == 1 &&
              seed_report().repeat.count[2] == 4);

// grid.py's CTA mesh is refused because of the mesh.
constexpr bool grid_refused() {
  tf::Site s = seed::gemm_site();
  s.mesh = seed::grid_cta;
  tf::MatchReport r = tf::match(tf::atoms::nv::sm80::mma, s);
  return !r.accepted && r.has(tf::ReasonKind::mesh);
}
static_assert(grid_refused());

// n = 260 is refused by its predicates.
constexpr bool n260_refused() {
  tf::Site s = seed::gemm_site();
  s.params[0] = tf::arg("n", 260);
  return tf::match(wgmma, s).has(tf::ReasonKind::param_predicate, "n");
}
static_assert(n260_refused());

// Shape symbols bind once per site: a copy's dst must have src's shape.
constexpr bool copy_shapes_shared(std::int64_t cols) {
  tf::Site s;
  s.mesh = tf::mesh("thread", tf::IntTuple{32});
  s.params = {tf::arg("dtype", tf::DType::bf16)};
  s.operands = {tf::site_operand("src", {64, 32}, tf::DType::bf16, tf::Storage::gmem),
                tf::site_operand("dst", {64, cols}, tf::DType::bf16, tf::Storage::smem)};
  tf::MatchReport r = tf::match(tf::atoms::generic::copy, s);
  return r.accepted == (cols == 32) &&
         (cols == 32 || (r.has(tf::ReasonKind::operand_shape, "dst") &&
                         r.reasons[0].other == "src"));
}
static_assert(copy_shapes_shared(32));
static_assert(copy_shapes_shared(64));

TEST(StaticChecks, Compiled) { SUCCEED(); }

} // namespace
