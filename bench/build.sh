#!/usr/bin/env bash
# bench/build.sh [BUILD_DIR] - builds BUILD_DIR/bench_nn and bench_nt (default
# build-bench/): bench/nn.cpp and nt.cpp (examples/gemm/optimal.cpp and
# nt.cpp with their mains renamed), the driver gemm_bench.cu and the CUDA
# backend's optimal.tf.cu and nt.tf.cu, linked with cuBLASLt. The .tf.cu
# files come from $TF_EMITTED_DIR (default BUILD_DIR/emitted); when missing
# they are generated with clang++-22 and the plugin ($TF_PLUGIN, default
# build/lib/tf.so). The GPU machine has no clang: emit them beforehand there
# (README.md). The five compilations run in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
emitted=${TF_EMITTED_DIR:-$build/emitted}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$build" "$emitted"
for example in optimal nt; do
  [[ -f $emitted/$example.tf.cu ]] && continue
  plugin=${TF_PLUGIN:-build/lib/tf.so}
  clang=${CLANGXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
  [[ -f $plugin && -x $clang ]] || {
    echo "no $emitted/$example.tf.cu, and no clang++ with $plugin to emit it" >&2
    exit 1; }
  "$clang" -std=c++20 -Iinclude -fsyntax-only -fplugin="$plugin" \
    -fplugin-arg-tf-emit="$emitted" "examples/gemm/$example.cpp"
done
flags=(-std=c++20 -O3 -Iinclude -Iruntime/include)
sm90=(-gencode=arch=compute_90a,code=sm_90a)
pids=()
"$NVCC" "${flags[@]}" "${sm90[@]}" -c bench/gemm_bench.cu -o "$build/gemm_bench.o" & pids+=($!)
for layout in nn nt; do
  "$NVCC" "${flags[@]}" -Xcompiler -Wno-attributes -c "bench/$layout.cpp" \
    -o "$build/${layout}_user.o" & pids+=($!)
done
"$NVCC" "${flags[@]}" "${sm90[@]}" -c "$emitted/optimal.tf.cu" -o "$build/nn.tf.o" & pids+=($!)
"$NVCC" "${flags[@]}" "${sm90[@]}" -c "$emitted/nt.tf.cu" -o "$build/nt.tf.o" & pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
for layout in nn nt; do
  "$NVCC" "$build/${layout}_user.o" "$build/$layout.tf.o" "$build/gemm_bench.o" \
    -lcublasLt -o "$build/bench_$layout"
done
