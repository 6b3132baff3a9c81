#!/usr/bin/env bash
# The sanitized suite (docs/testing.md): build-asan/, clang 22 with
# -fsanitize=address,undefined (undefined behaviour stops the program) and
# the libFuzzer targets of test/fuzz; there, a fuzzing pass of
# $TF_FUZZ_SECONDS (default 60) per fuzzer (label fuzz) and the lit suites
# that run clean sanitized so far (label sanitized: the malformed-kernel
# corpus through the plugin, `tf layout`). Run after .ci/setup.sh
# (test/run.sh does both).
#
# TF_SANITIZE_LABELS=REGEX runs those labels too, e.g.
# 'plugin|cli|layout|targets|hir|analysis|lower|emit|interp|capacity'
# (building their targets first: `cmake --build build-asan`).
set -euo pipefail
cd "$(dirname "$0")/.."

labels='fuzz|sanitized'
targets=(tf tf_plugin layout_fuzzer targets_fuzzer cli_fuzzer kernel_fuzzer)
if [[ -n ${TF_SANITIZE_LABELS:-} ]]; then
  labels+="|$TF_SANITIZE_LABELS"
  targets=(all)
fi

if [[ ! -f build-asan/build.ninja ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTF_SANITIZE=address,undefined -DTF_FUZZ=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
fi
cmake --build build-asan --target "${targets[@]}"
cd build-asan
# Tests of other compilers and clang loading tf.so without the runtime
# preloaded are not tf's code under the sanitizers.
ctest --output-on-failure -j"$(nproc)" -L "^($labels)$" \
  -E '(-nvcc|-gxx|-clang|-plugin)$|^layout-static-clang$'
