#!/usr/bin/env bash
# The sanitized suite (docs/testing.md): build-asan/, clang 22 with
# -fsanitize=address,undefined (undefined behaviour stops the program) and
# the libFuzzer targets of test/fuzz; then, there, the tests of the labels
# below and a fuzzing pass of $TF_FUZZ_SECONDS (default 60) per fuzzer.
# Run after .ci/setup.sh (test/run.sh does both).
#
# What runs sanitized: the GoogleTest suites of the compiler's libraries, the
# tf tool and the plugin (lit: cli, plugin, layout, language; clang loads
# the sanitized tf.so with the ASan runtime preloaded, test/lit.cfg.py),
# the header-only CPU examples and their interpreter runs, and the fuzzers.
# Not here: the header-only contract and atom suites (compile-time checks),
# nvcc and the GPU tests, and the docs check -- they run in build/.
set -euo pipefail
cd "$(dirname "$0")/.."

labels='layout|targets|hir|analysis|lower|emit|interp|capacity|cli|plugin|language|examples|fuzz'
# Tests of those labels that are not tf's own code under the sanitizers:
# other compilers checking the headers, and clang loading tf.so without the
# runtime preloaded.
excluded='-(nvcc|gxx|clang|plugin)$|^layout-static-clang$'
targets=(tf tf_plugin
  tf_layout_tests tf_targets_tests tf_hir_tests tf_analysis_tests
  tf_lower_tests tf_emit_tests tf_interp_tests tf_capacity_tests
  tf_language_tests tf_example_check_tests
  layout_fuzzer targets_fuzzer cli_fuzzer kernel_fuzzer)
for example in grid persistent optimal relu f16; do
  targets+=("tf_gemm_$example")
done
for example in $(sed -n 's/^foreach(example \(.*\))$/\1/p' test/interp/CMakeLists.txt); do
  targets+=("tf_interp_gemm_$example")
done

if [[ ! -f build-asan/build.ninja ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTF_SANITIZE=address,undefined -DTF_FUZZ=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
fi
cmake --build build-asan --target "${targets[@]}"
cd build-asan
ctest --output-on-failure -j"$(nproc)" -L "^($labels)$" -E "$excluded"
