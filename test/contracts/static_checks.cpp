//===- test/contracts/static_checks.cpp - The engine in constant evaluation
//
// Headers can static_assert a match: the engine is constexpr and
// allocation-free. Kept to a few checks so the file compiles quickly.
//
//===----------------------------------------------------------------------===//
#include "seed_site.hpp"

#include "tf/atoms/nv/sm80/mma.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"

#include <gtest/gtest.h>

namespace {

using tf::atoms::nv::sm90::wgmma;

// The seed's GEMM: accepted, repeat (2,1,4).
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

TEST(StaticChecks, Compiled) { SUCCEED(); }

} // namespace
