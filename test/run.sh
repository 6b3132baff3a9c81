#!/usr/bin/env bash
# Sets tf up (see .ci/setup.sh), builds it and runs every test: GoogleTest
# suites, compile-time checks and the lit suites, through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
cd build
ctest --output-on-failure -j"$(nproc)"
