#!/usr/bin/env bash
# The sanitized suite (docs/testing.md): build-asan/, clang 22 with
# -fsanitize=address,undefined (undefined behaviour stops the program) and
# the libFuzzer targets of test/fuzz. Run after .ci/setup.sh (test/run.sh,
# so CI, does both).
#
# By default (CI's pass) it builds the tf tool, the plugin, the fuzzers and
# the GoogleTest suites of the libraries, and runs:
#   - a bounded pass of each fuzzer ($TF_FUZZ_SECONDS, default 60);
#   - the compiler's lit suites through the sanitized plugin and tool (labels
#     plugin and cli: the diagnostics, malformed-kernel and mistakes corpora,
#     contracts, lowering, emitted code, the queries);
#   - every GoogleTest suite but the interpreter's GEMM runs (the layout
#     algebra, targets, contracts, atoms, analysis, capacity, cost, HIR,
#     lowering, emission, runtime with its AMX emulation, schedulers,
#     language) and the layout and language lit suites;
#   - the interpreter's unit tests and one of its GEMM runs, the optimal
#     kernel's (lowered form against the header-only CPU run of the same
#     source, so the header-only code runs sanitized too). Each of the
#     other GEMM runs takes 3 to 5 minutes under ASan: CI has no room for
#     them.
# TF_SANITIZE_LABELS=REGEX adds labels (and then builds the whole tree).
#
# TF_SANITIZE_SUITE=all builds the whole tree and runs the whole suite that
# runs tf's own code, every interpreter GEMM run included: every label but
# adoption (CMake and Make projects using the installed package), docs (the
# text of docs/), editor (clangd and clang-tidy, not instrumented, load tf.so
# without the ASan runtime), gpu (nvcc and ptxas on generated CUDA) and
# mutation (the tests' strength, by rebuilding planted bugs).
#
set -euo pipefail
cd "$(dirname "$0")/.."

labels='fuzz|plugin|cli|analysis|atoms|capacity|contracts|cost|emit|hir|layout|lower|runtime|schedulers|targets|language|interp'
select=(-L "^($labels)$")
# The one interpreter GEMM run kept ('' keeps them all).
gemm_run=interp-gemm-optimal
targets=(tf tf_plugin layout_fuzzer targets_fuzzer cli_fuzzer kernel_fuzzer
  tf_layout_tests tf_targets_tests tf_contract_tests tf_atom_tests
  tf_analysis_tests tf_capacity_tests tf_cost_tests tf_hir_tests
  tf_lower_tests tf_lower_handoff_tests tf_emit_tests tf_runtime_tests
  tf_runtime_amx_tests tf_runtime_cuda_tests tf_scheduler_tests
  tf_language_tests tf_interp_tests tf_interp_gemm_optimal)
if [[ ${TF_SANITIZE_SUITE:-} == all ]]; then
  select=(-LE '^(adoption|docs|editor|gpu|mutation)$')
  gemm_run=
  targets=(all)
elif [[ -n ${TF_SANITIZE_LABELS:-} ]]; then
  select=(-L "^($labels|$TF_SANITIZE_LABELS)$")
  targets=(all)
fi

if [[ ! -f build-asan/build.ninja ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTF_SANITIZE=address,undefined -DTF_FUZZ=ON \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
fi
cmake --build build-asan --target "${targets[@]}"
cd build-asan
# No manual poisoning: tf's code carries instrumented copies of LLVM's inline
# allocator code, which poison a new BumpPtrAllocator slab that the
# uninstrumented libLLVM then hands out piece by piece without unpoisoning,
# so reading clang's AST nodes would be reported as a use after poison
# (interp-gemm-bias_gelu, 2026-12-04). lit sets the same (test/lit.cfg.py).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allow_user_poisoning=0
# Other compilers' runs of the sources (nvcc, g++, clang without tf.so) and
# clang loading tf.so without the ASan runtime are not sanitized runs.
others='^(example|language|layout|schedulers)-.+-(nvcc|gxx|clang|plugin)$'
skip=$others
if [[ -n $gemm_run ]]; then
  skip+="|^($(ctest -N | sed -n 's/^ *Test *#[0-9]*: \(interp-gemm-.*\)$/\1/p' |
    grep -vx "$gemm_run" | paste -sd'|'))\$"
  # The row kernels' interpreter runs (not built above; TF_SANITIZE_SUITE=all
  # builds and runs them).
  skip+='|^interp-rows-'
fi
ctest --output-on-failure -j"$(nproc)" "${select[@]}" -E "$skip"
