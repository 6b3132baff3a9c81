#!/usr/bin/env bash
# bench/rows/run.sh [BENCH_ARGS...] - on the GPU machine: builds
# libtf_rows.so (build.sh, into $TF_BENCH_BUILD, default build-bench-rows/)
# and runs bench.py on it with BENCH_ARGS, writing rows.csv, rows.png and
# rows.log into $OUT (the device tool's folder) or the build folder.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${TF_BENCH_BUILD:-build-bench-rows}
out=${OUT:-$build}
mkdir -p "$build" "$out"
{
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') commit ${TF_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}"
  echo "== $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
} | tee "$out/rows.log"
bench/rows/build.sh "$build" >>"$out/rows.log" 2>&1 || {
  tail -20 "$out/rows.log"; echo "bench/rows/build.sh failed"; exit 1; }
grep -h 'registers\|spill' "$build"/*.ptxas >>"$out/rows.log"
PYTHONUNBUFFERED=1 python3 bench/rows/bench.py "$build/libtf_rows.so" \
  --csv "$out/rows.csv" --png "$out/rows.png" "$@" 2>&1 | tee -a "$out/rows.log"
exit "${PIPESTATUS[0]}"
