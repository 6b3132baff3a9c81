#!/usr/bin/env bash
# bench/run.sh - on a machine with an H200: builds the benchmark
# (bench/build.sh), measures tf::launch's host time per launch, runs the
# sweep for NN (optimal.cpp) and NT (nt.cpp) and for the other NN schedules
# ($TF_BENCH_SCHEDULES, default "n128 n192"), writes gemm_nn.csv,
# gemm_nt.csv, gemm_nn_SCHEDULE.csv, gemm.png and bench.log to $OUT (the device tool) or
# $TF_BENCH_BUILD (default build-bench/). $TF_COMMIT names the commit when
# the tree is a copy without git history. Exit status 0 only if every
# output checked and tf::launch took under 5 us of host time.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${TF_BENCH_BUILD:-build-bench}
results=${OUT:-$build}
mkdir -p "$build" "$results"
log=$results/bench.log
bash bench/build.sh "$build" 2>&1 | tee "$log" || exit 1
{
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') commit ${TF_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
  "${NVCC:-nvcc}" --version | tail -1
} 2>&1 | tee -a "$log"
status=0
for layout in nn nt; do
  timeout 120 "$build/bench_$layout" --launch-overhead 2>&1 | tee -a "$log"
  (( PIPESTATUS[0] == 0 )) || status=1
done
for layout in nn nt; do
  timeout "${TF_BENCH_TIMEOUT:-240}" "$build/bench_$layout" \
    --csv "$results/gemm_$layout.csv" 2>&1 | tee -a "$log"
  (( PIPESTATUS[0] == 0 )) || status=1
done
# The other NN schedules (bench/build.sh, $TF_BENCH_SCHEDULES): the same
# sweep, each against cuBLASLt again in its own process.
for schedule in ${TF_BENCH_SCHEDULES-n128 n192}; do
  timeout "${TF_BENCH_TIMEOUT:-240}" "$build/bench_$schedule" \
    --csv "$results/gemm_nn_$schedule.csv" 2>&1 | tee -a "$log"
  (( PIPESTATUS[0] == 0 )) || status=1
done
python3 bench/plot.py "$results"/gemm_nn.csv "$results"/gemm_nt.csv \
  -o "$results/gemm.png" --title "${TF_COMMIT:-}" 2>&1 | tee -a "$log"
(( PIPESTATUS[0] == 0 )) || status=1
echo "== bench status $status" | tee -a "$log"
exit $status
