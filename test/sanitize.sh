#!/usr/bin/env bash
# The sanitized suite (docs/testing.md): build-asan/, clang 22 with
# -fsanitize=address,undefined (undefined behaviour stops the program) and
# the libFuzzer targets of test/fuzz. Run after .ci/setup.sh (test/run.sh,
# so CI, does both).
#
# By default (CI's pass) it builds the tf tool, the plugin and the fuzzers
# and runs a bounded pass of each fuzzer ($TF_FUZZ_SECONDS, default 60) and
# the compiler's lit suites through them (labels plugin and cli: the
# diagnostics, malformed-kernel and mistakes corpora, contracts, lowering,
# emitted code, the queries). TF_SANITIZE_LABELS=REGEX adds labels (and then
# builds the whole tree).
#
# TF_SANITIZE_SUITE=all builds the whole tree and runs the whole suite that
# runs tf's own code: every label but adoption (CMake and Make projects
# using the installed package), docs (the text of docs/), editor (clangd and
# clang-tidy, not instrumented, load tf.so without the ASan runtime), gpu
# (nvcc and ptxas on generated CUDA) and mutation (the tests' strength, by
# rebuilding planted bugs).
#
# Either way, the tests of other compilers (g++, nvcc, clang without the
# plugin: example-*-gxx and the like) and of clang loading tf.so without the
# ASan runtime preloaded (example-*-plugin; lit runs clang through wrappers
# that preload it) are left out.
set -euo pipefail
cd "$(dirname "$0")/.."

select=(-L '^(fuzz|plugin|cli)$')
targets=(tf tf_plugin layout_fuzzer targets_fuzzer cli_fuzzer kernel_fuzzer)
if [[ ${TF_SANITIZE_SUITE:-} == all ]]; then
  select=(-LE '^(adoption|docs|editor|gpu|mutation)$')
  targets=(all)
elif [[ -n ${TF_SANITIZE_LABELS:-} ]]; then
  select=(-L "^(fuzz|plugin|cli|$TF_SANITIZE_LABELS)$")
  targets=(all)
fi

if [[ ! -f build-asan/build.ninja ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTF_SANITIZE=address,undefined -DTF_FUZZ=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
fi
cmake --build build-asan --target "${targets[@]}"
cd build-asan
ctest --output-on-failure -j"$(nproc)" "${select[@]}" \
  -E '^(example|language|layout|schedulers)-.+-(nvcc|gxx|clang|plugin)$'
