#!/usr/bin/env bash
# bench/build.sh [BUILD_DIR] - builds BUILD_DIR/bench_nn and bench_nt (default
# build-bench/): bench/nn.cpp and nt.cpp (examples/gemm/optimal.cpp and
# nt.cpp with their mains renamed), the driver gemm_bench.cu and the CUDA
# backend's optimal.tf.cu and nt.tf.cu, linked with cuBLASLt; and, for each
# NN schedule in $TF_BENCH_SCHEDULES (default "n128 n192": variants of
# optimal.cpp that examples/gemm/variants.py writes into BUILD_DIR/variants),
# BUILD_DIR/bench_SCHEDULE from bench/nn.cpp with that source. The .tf.cu
# files come from $TF_EMITTED_DIR (default BUILD_DIR/emitted); when missing
# they are generated with clang++-22 and the plugin ($TF_PLUGIN, default
# build/lib/tf.so). The GPU machine has no clang: emit them beforehand there
# (README.md). The compilations run in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
emitted=${TF_EMITTED_DIR:-$build/emitted}
schedules=(${TF_BENCH_SCHEDULES-n128 n192})
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$build" "$emitted" "$build/variants"
sources=(examples/gemm/optimal.cpp examples/gemm/nt.cpp)
for schedule in "${schedules[@]}"; do
  python3 examples/gemm/variants.py write "$schedule" "$build/variants/$schedule.cpp"
  sources+=("$build/variants/$schedule.cpp")
done
for source in "${sources[@]}"; do
  example=$(basename "$source" .cpp)
  [[ -f $emitted/$example.tf.cu ]] && continue
  plugin=${TF_PLUGIN:-build/lib/tf.so}
  clang=${CLANGXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
  [[ -f $plugin && -x $clang ]] || {
    echo "no $emitted/$example.tf.cu, and no clang++ with $plugin to emit it" >&2
    exit 1; }
  "$clang" -std=c++20 -Iinclude -Iexamples/gemm -fsyntax-only -fplugin="$plugin" \
    -fplugin-arg-tf-emit="$emitted" "$source"
done
variants=$(cd "$build/variants" && pwd)
flags=(-std=c++20 -O3 -Iinclude -Iruntime/include -Iexamples/gemm)
sm90=(-gencode=arch=compute_90a,code=sm_90a)
pids=()
"$NVCC" "${flags[@]}" "${sm90[@]}" -c bench/gemm_bench.cu -o "$build/gemm_bench.o" & pids+=($!)
for layout in nn nt; do
  "$NVCC" "${flags[@]}" -Xcompiler -Wno-attributes -c "bench/$layout.cpp" \
    -o "$build/${layout}_user.o" & pids+=($!)
done
"$NVCC" "${flags[@]}" "${sm90[@]}" -c "$emitted/optimal.tf.cu" -o "$build/nn.tf.o" & pids+=($!)
"$NVCC" "${flags[@]}" "${sm90[@]}" -c "$emitted/nt.tf.cu" -o "$build/nt.tf.o" & pids+=($!)
for schedule in "${schedules[@]}"; do
  "$NVCC" "${flags[@]}" -Xcompiler -Wno-attributes \
    "-DTF_BENCH_EXAMPLE=\"$variants/$schedule.cpp\"" \
    "-DTF_BENCH_SCHEDULE=\"$schedule\"" -c bench/nn.cpp \
    -o "$build/${schedule}_user.o" & pids+=($!)
  "$NVCC" "${flags[@]}" "${sm90[@]}" -c "$emitted/$schedule.tf.cu" \
    -o "$build/$schedule.tf.o" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
for program in nn nt "${schedules[@]}"; do
  "$NVCC" "$build/${program}_user.o" "$build/$program.tf.o" "$build/gemm_bench.o" \
    -lcublasLt -o "$build/bench_$program"
done
