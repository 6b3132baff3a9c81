#!/usr/bin/env bash
# Prints examples/gemm/optimal.cpp with one decision broken, line numbers
# unchanged, to show what the plugin says (docs/tutorial/02_checking_the_kernel.md;
# test/examples/optimal_broken.test checks it):
#
#   no-thread-mesh  the WGMMA statement loses its [[tf::mesh(compute)]]: it
#                   runs on the CTA mesh, where no thread issues it
#   ring-layout     the A ring's slots lose their 128-byte swizzle, a layout
#                   WGMMA cannot read
#   repeat          tf::Repeat<2, 1, 2> instead of the derived <2, 1, 4>
#   stages          5 stages of 128 x 256 x 64 tiles: 304 KiB of shared memory
#   undecided-mma   the MMA left undecided on the compute mesh: a plain
#                   tf::matmul, for `tf candidates` to choose (docs/agents.md)
#
# Usage: examples/gemm/break.sh WHAT | clang++-22 -x c++ - -I examples/gemm ...
#        examples/gemm/break.sh WHAT > FILE.cpp  (for the tf tool's queries)
set -euo pipefail
src="$(dirname "$0")/optimal.cpp"
case "${1:-}" in
  no-thread-mesh) sed 's/\[\[tf::mesh(compute)\]\] acc =/                      acc =/' "$src" ;;
  ring-layout) sed '/^using LhsSlot/,/tf::smem/s/ | Swizzle(3,4,3)"/"/' "$src" ;;
  repeat) sed 's/tf::Repeat<2, 1, 4>/tf::Repeat<2, 1, 2>/' "$src" ;;
  stages) sed 's/STAGES = 3,/STAGES = 5,/' "$src" ;;
  undecided-mma)
    sed -e 's/\[\[tf::mesh(compute)\]\] acc =  /[[tf::mesh(compute)]]/' \
        -e 's/tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);/tf::matmul(acc, lhs, rhs);  \/\/ undecided/' "$src" ;;
  *) echo "usage: $0 no-thread-mesh|ring-layout|repeat|stages|undecided-mma" >&2; exit 2 ;;
esac
