#!/usr/bin/env bash
# Sets tf up (see .ci/setup.sh), builds it and runs every test: GoogleTest
# suites, compile-time checks and the lit suites, through ctest. Then the
# sanitized build (test/sanitize.sh): the plugin's and the queries' lit
# suites, the libraries' GoogleTest suites and the interpreter's optimal
# GEMM run under ASan and UBSan, and a bounded pass of each fuzzer
# (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's wall time goes to the log: CI has 90 minutes for all three.
timed() {
  local start=$SECONDS
  "$@"
  echo "tf test: '$*' took $((SECONDS - start)) s"
}
timed bash .ci/setup.sh
cd build
timed ctest --output-on-failure -j"$(nproc)"
cd ..
timed bash test/sanitize.sh
