#!/usr/bin/env bash
# Sets tf up (see .ci/setup.sh), builds it and runs every test: GoogleTest
# suites, compile-time checks and the lit suites, through ctest. Then the
# sanitized build (test/sanitize.sh): the plugin's and the queries' lit
# suites under ASan and UBSan and a bounded pass of each fuzzer
# (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
(cd build && ctest --output-on-failure -j"$(nproc)")
bash test/sanitize.sh
