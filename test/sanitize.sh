#!/usr/bin/env bash
# The sanitized suite (docs/testing.md): build-asan/, clang 22 with
# -fsanitize=address,undefined (undefined behaviour stops the program) and
# the libFuzzer targets of test/fuzz. There, the whole suite that runs tf's
# own code: every ctest label but those that test other things -- adoption
# (CMake and Make projects using the installed package), docs (the text of
# docs/), gpu (nvcc and ptxas on generated CUDA) and mutation (the tests'
# strength, by rebuilding planted bugs) -- and, within the labels, the tests
# of other compilers (g++, nvcc, clang without the plugin) and clang loading
# tf.so without the ASan runtime preloaded (lit runs clang through wrappers
# that preload it). The fuzzers (label fuzz) each fuzz for $TF_FUZZ_SECONDS
# (default 60). Run after .ci/setup.sh (test/run.sh does both).
#
# TF_SANITIZE_LABELS=REGEX runs only those labels, e.g. 'fuzz' or
# 'plugin|cli' (building only what they need is not worth the bookkeeping:
# the whole tree is built).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -f build-asan/build.ninja ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTF_SANITIZE=address,undefined -DTF_FUZZ=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
fi
cmake --build build-asan
cd build-asan
select=(-LE '^(adoption|docs|gpu|mutation)$')
if [[ -n ${TF_SANITIZE_LABELS:-} ]]; then
  select=(-L "^($TF_SANITIZE_LABELS)$")
fi
ctest --output-on-failure -j"$(nproc)" "${select[@]}" \
  -E '(-nvcc|-gxx|-clang|-plugin)$|^layout-static-clang$'
