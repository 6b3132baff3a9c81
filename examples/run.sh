#!/usr/bin/env bash
# The main job: set tf up (see .ci/setup.sh), build it, compile the annotated
# example through the plugin and show what the plugin found, show the
# example's layouts with the tf tool, then run the optimal GEMM
# (examples/gemm/optimal.cpp) header-only on the CPU at a small shape and
# print its error against a naive reference.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh >/dev/null

example=examples/layout/annotated.cpp
echo "== clang++ -fplugin=tf.so -fplugin-arg-tf-report $example"
/usr/lib/llvm-22/bin/clang++ -std=c++20 -fsyntax-only -Iinclude \
  -fplugin=build/lib/tf.so -fplugin-arg-tf-report "$example"

echo
echo "== tf layout: the seed's shared-memory tile and thread meshes"
tile='((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)'
build/bin/tf layout print --matrix "$tile"
build/bin/tf layout coalesce '((2,8,8),(4,16)):((4096,512,64),(16,1))'
build/bin/tf layout print --matrix '[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128'
build/bin/tf layout divide '(128,256):(256,1)' 'tile(64:1, 256:1)'

echo
echo "== examples/gemm/optimal.cpp header-only (CPU), M=200 N=300 K=100, vs. a naive fp32 reference"
build/bin/tf_gemm_optimal 200 300 100
