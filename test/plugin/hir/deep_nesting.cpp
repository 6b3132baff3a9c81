// Ops nested 64 deep in one expression, inside nested blocks, build
// and check without exhausting the stack. A hir::Stmt once held its
// contract match inline (~380 KB): the builder's frames over nested ops
// then overflowed 8 MB at about 15 levels (found by the sanitized suite on
// the online softmax, 3 levels deep under ASan).
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -Xclang -verify %s
// expected-no-diagnostics
#include "../../../examples/rows/rows.hpp"

namespace deep {
using rows::BM;
using rows::BN;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void nested(rows::Matrix x, rows::Matrix y) {
  const std::int64_t GM = tf::ceil_div(x.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(x.extent(1), BN);
  for (auto [m, n] : tf::grid_tiles(rows::cta, GM, GN)) {
    [[tf::mesh(rows::threads)]] {
      { { { { { { { {
        auto regs = tf::empty<rows::RowTile>();
        tf::copy(x.tile<BM, BN>(m * BM, n * BN), regs);
        auto out = tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::add(tf::cast<float>(regs), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs)), tf::cast<float>(regs));
        tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, n * BN));
      } } } } } } } }
    }
  }
}
} // namespace deep
