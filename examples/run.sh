#!/usr/bin/env bash
# The main job: set tf up (see .ci/setup.sh) and build it; compile the
# optimal GEMM (examples/gemm/optimal.cpp) through the plugin with -Werror
# (it checks every decision against the H200's contracts and facts) and show
# the attribute sites it found and the IR it derived; show the diagnostic and
# fix-it the plugin gives when a decision is broken; ask the tool for the
# contract of the WGMMA the kernel chose and for the layouts it uses; show the
# lowered main loop (tf finalize), emit the kernel as CUDA for the H200 and
# compile it for sm_90a (ptxas' report); then run the GEMM header-only on the
# CPU at a small shape and print its error against a naive reference. (The
# generated kernel runs on a GPU machine: test/gpu/run.sh, docs/gpu.md.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh >/dev/null

example=examples/gemm/optimal.cpp
echo "== clang++ -fplugin=tf.so -fplugin-arg-tf-report -Werror $example"
/usr/lib/llvm-22/bin/clang++ -std=c++20 -fsyntax-only -Werror -Iinclude \
  -fplugin=build/lib/tf.so -fplugin-arg-tf-report "$example"

echo
echo "== tf hir $example: the main loop as the plugin derived it"
build/bin/tf hir "$example" -- -std=c++20 -Iinclude | sed -n '/for %k/,/^    }/p'

echo
echo "== a broken decision: tf::Repeat<2, 1, 2> (examples/gemm/break.sh repeat)"
examples/gemm/break.sh repeat |
  /usr/lib/llvm-22/bin/clang++ -std=c++20 -fsyntax-only -x c++ - -Iinclude \
    -Iexamples/gemm -fplugin=build/lib/tf.so -fdiagnostics-parseable-fixits 2>&1 || true

echo
echo "== tf facts nv.sm90.Wgmma --target nvidia.h200_sxm (first lines)"
build/bin/tf facts nv.sm90.Wgmma --target nvidia.h200_sxm | sed -n '1,40p'

echo
echo "== tf layout: the GEMM's shared-memory A tile and the consumer mesh"
build/bin/tf layout print --matrix '((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)'
build/bin/tf layout coalesce '((2,8,8),(4,16)):((4096,512,64),(16,1))'
build/bin/tf layout print --matrix '[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128'

echo
echo "== tf finalize $example: the lowered main loop of the compute warpgroups"
build/bin/tf finalize "$example" -- -std=c++20 -Iinclude |
  sed -n '/scope thread\[128:384\]/,$p' | sed -n '/for k in/,/arrive rhs_ring/p'

echo
echo "== clang++ -fplugin=tf.so -fplugin-arg-tf-emit=build/emitted $example"
mkdir -p build/emitted
/usr/lib/llvm-22/bin/clang++ -std=c++20 -fsyntax-only -Iinclude \
  -fplugin=build/lib/tf.so -fplugin-arg-tf-emit=build/emitted "$example"
wc -l build/emitted/optimal.tf.cu
if [[ -x /usr/local/cuda/bin/nvcc ]]; then
  echo "== nvcc -gencode=arch=compute_90a,code=sm_90a build/emitted/optimal.tf.cu (ptxas report)"
  /usr/local/cuda/bin/nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a \
    -Iinclude -Iruntime/include -Xptxas -v -c build/emitted/optimal.tf.cu \
    -o build/emitted/optimal.tf.o 2>&1 | grep -E 'Used|spill'
fi

echo
echo "== $example header-only (CPU), M=200 N=300 K=100, vs. a naive fp32 reference"
build/bin/tf_gemm_optimal 200 300 100
