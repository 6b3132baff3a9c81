#!/usr/bin/env bash
# A bounded fuzzing run: run.sh FUZZER SEEDS WORK [LIBFUZZER FLAGS...]
# Fuzzes for $TF_FUZZ_SECONDS (default 60) from the seed corpus SEEDS, which
# is only read; inputs found go to WORK/corpus, a crash, leak, timeout or
# out-of-memory input to WORK/ (crash-*, leak-*, timeout-*, oom-*), and any
# of those fails the run. The seed is $TF_FUZZ_SEED (default 1, so that CI's
# pass explores the same way each time; 0 draws one). docs/testing.md says how
# to fuzz longer.
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3
shift 3
rm -rf "$work"
mkdir -p "$work/corpus"
exec "$fuzzer" -max_total_time="${TF_FUZZ_SECONDS:-60}" -rss_limit_mb=4096 \
  -seed="${TF_FUZZ_SEED:-1}" \
  -print_final_stats=1 -artifact_prefix="$work/" "$@" "$work/corpus" "$seeds"
