//===- test/schedulers/schedule_table.cpp - Which CTA takes which tile ----===//
//
// tf_schedule_table GM GN P [group_m] [column_major 0|1] [cluster]
//
// Runs a kernel under tf::launch with P CTAs; each walks
// tf::persistent_tiles and records its tiles. Prints, per CTA, its tiles in
// order (m,n)@iteration, then the GM x GN grid with the CTA and iteration
// of every tile. docs/language/schedulers.md shows its output.
//
//===----------------------------------------------------------------------===//
#include "tf/launch.hpp"
#include "tf/layout/text.hpp"
#include "tf/scheduler/persistent_tiles.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "persistent");

struct Record {
  std::vector<std::vector<tf::Tile>> per_cta;
};

void record_kernel(Record *out, std::int64_t GM, std::int64_t GN,
                   tf::PersistentTilesOptions options) {
  auto &mine = out->per_cta[static_cast<std::size_t>(tf::unit_index())];
  for (tf::Tile t : tf::persistent_tiles(cta, GM, GN, options))
    mine.push_back(t);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 4 || argc > 7) {
    std::fprintf(stderr, "usage: tf_schedule_table GM GN P [group_m] "
                         "[column_major 0|1] [cluster]\n");
    return 2;
  }
  const std::int64_t GM = std::atoll(argv[1]), GN = std::atoll(argv[2]),
                     P = std::atoll(argv[3]);
  tf::PersistentTilesOptions o;
  if (argc > 4)
    o.group_m = std::atoll(argv[4]);
  if (argc > 5)
    o.column_major = std::atoi(argv[5]) != 0;
  if (argc > 6)
    o.cluster = std::atoll(argv[6]);
  Record rec;
  rec.per_cta.resize(static_cast<std::size_t>(P));
  tf::launch(record_kernel, tf::grid(P), &rec, GM, GN, o);

  std::printf("GM=%lld GN=%lld P=%lld group_m=%lld column_major=%d "
              "cluster=%lld\n",
              static_cast<long long>(GM), static_cast<long long>(GN),
              static_cast<long long>(P), static_cast<long long>(o.group_m),
              o.column_major ? 1 : 0, static_cast<long long>(o.cluster));
  std::vector<std::int64_t> owner(static_cast<std::size_t>(GM * GN), -1),
      clock(static_cast<std::size_t>(GM * GN), -1);
  for (std::int64_t p = 0; p < P; ++p) {
    std::printf("CTA %2lld:", static_cast<long long>(p));
    for (const tf::Tile &t : rec.per_cta[static_cast<std::size_t>(p)]) {
      std::printf(" (%lld,%lld)", static_cast<long long>(t.m),
                  static_cast<long long>(t.n));
      owner[static_cast<std::size_t>(t.m * GN + t.n)] = p;
      clock[static_cast<std::size_t>(t.m * GN + t.n)] = t.iteration;
    }
    std::printf("\n");
  }
  std::printf("tile grid, CTA@iteration (rows m, columns n):\n");
  for (std::int64_t m = 0; m < GM; ++m) {
    std::printf("  m=%lld:", static_cast<long long>(m));
    for (std::int64_t n = 0; n < GN; ++n) {
      const std::size_t i = static_cast<std::size_t>(m * GN + n);
      std::printf(" %2lld@%lld", static_cast<long long>(owner[i]),
                  static_cast<long long>(clock[i]));
    }
    std::printf("\n");
  }
  return 0;
}
