#!/usr/bin/env bash
# test/gpu/run.sh - build and run every GPU test on a machine with an H200.
#
#   test/gpu/run.sh [--cublas] [--sustained] [--only 'NAME...']
#
# Builds each test with nvcc for sm_90a, runs it under `timeout`, runs
# compute-sanitizer on the small test, checks the SASS for the instructions
# the tests exist for (HGMMA, UTMALDG, UTMASTG), and prints a summary table
# last. Exit status 0 only if every step passed. Binaries and logs go to
# $TF_GPU_BUILD (default build-gpu/); with $OUT set (the device tool), the
# full log is copied there too. $TF_COMMIT names the commit in the log when
# the tree is a copy without git history. --cublas also times cuBLAS (through
# PyTorch) on the GEMM shapes listed below, the baseline the generated GEMMs
# are compared with. --sustained also runs every gemm_* folder test with
# --sustained (gemm_harness.hpp): at 8192 x 17408 x 5120, ours and its cuBLAS
# baseline timed over launches back to back, in interleaved rounds. --only
# runs the tests whose names match one of the words (shell patterns:
# 'gemm_optimal gemm_f16*'), for a device call that is about a few of them.
set -uo pipefail

cd "$(dirname "$0")/../.."
BUILD=${TF_GPU_BUILD:-build-gpu}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS=(-std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude
       -Iruntime/include -Xptxas -v)
RUN_TIMEOUT=60
CUBLAS=0
SUSTAINED=0
ONLY=()
while (($#)); do
  case $1 in
    --cublas) CUBLAS=1 ;;
    --sustained) SUSTAINED=1 ;;
    --only) [[ $# -ge 2 ]] || { echo "$0: --only needs its names" >&2; exit 2; }
            read -ra ONLY <<<"$2"; shift ;;
    *) echo "usage: $0 [--cublas] [--sustained] [--only 'NAME...']" >&2; exit 2 ;;
  esac
  shift
done
selected() { # NAME: whether --only (if given) matches it
  ((${#ONLY[@]} == 0)) && return 0
  local p
  for p in "${ONLY[@]}"; do
    # shellcheck disable=SC2053 # a pattern, on purpose
    [[ $1 == $p ]] && return 0
  done
  return 1
}
mkdir -p "$BUILD"
LOG=$BUILD/run.log
: >"$LOG"
SUMMARY=()
FAILED=0

note() { printf '%s\n' "$*" | tee -a "$LOG"; }
record() { # step, verdict, detail
  SUMMARY+=("$(printf '%-34s %-5s %s' "$1" "$2" "$3")")
  [[ $2 == PASS || $2 == INFO ]] || FAILED=1
}

note "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') commit ${TF_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo '?')}"
note "== $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
note "== $("$NVCC" --version | tail -1)"

# Hand-written tests: name -> how its run is judged ("verdict": its own
# PASS/FAIL lines and exit code; "trap": it must end by a debug-wait trap).
# A test is test/gpu/NAME.cu, or a folder test/gpu/NAME/ whose build.sh
# builds $BUILD/NAME from several files.
declare -A KIND=([single_tile]=verdict [pipeline]=verdict [debug_wait]=trap
                [wgmma_forms]=verdict)
TESTS=(single_tile pipeline debug_wait wgmma_forms)
for f in test/gpu/*/build.sh; do
  t=$(basename "$(dirname "$f")")
  KIND[$t]=verdict
  TESTS+=("$t")
done

# --- Generated GEMM tests (issue 7, next part) -----------------------------
# Each test/gpu/gemm/*.cu is a generated kernel plus its host check; it is
# built and judged like a "verdict" test. A generated kernel linked with a
# user's program is a folder with a build.sh, like launch_gemm/ (above). Its output should include a line
#   PERF <shape M,N,K> <TFLOP/s>
# which the summary shows next to cuBLAS's rate for the same shape when
# --cublas is given (CUBLAS_SHAPES below).
for f in test/gpu/gemm/*.cu; do
  [[ -e $f ]] || continue
  t=gemm_$(basename "$f" .cu)
  KIND[$t]=verdict
  TESTS+=("$t")
done
CUBLAS_SHAPES=("8192,17408,5120")
# ---------------------------------------------------------------------------

# --only: the tests it names.
all_tests=("${TESTS[@]}")
TESTS=()
for t in "${all_tests[@]}"; do selected "$t" && TESTS+=("$t"); done
((${#TESTS[@]})) || { echo "$0: --only ${ONLY[*]} names no test" >&2; exit 2; }

source_of() { [[ $1 == gemm_* ]] && echo "test/gpu/gemm/${1#gemm_}.cu" || echo "test/gpu/$1.cu"; }

# Builds run in parallel: they are independent and the machine has cores.
for t in "${TESTS[@]}"; do
  if [[ -x test/gpu/$t/build.sh ]]; then
    NVCC=$NVCC test/gpu/$t/build.sh "$BUILD" >"$BUILD/$t.build.log" 2>&1 &
  else
    "$NVCC" "${FLAGS[@]}" "$(source_of "$t")" -o "$BUILD/$t" >"$BUILD/$t.build.log" 2>&1 &
  fi
done
"$NVCC" "${FLAGS[@]}" -c test/gpu/static_checks.cu -o "$BUILD/static_checks.o" \
  >"$BUILD/static_checks.build.log" 2>&1 &
wait

if [[ -s $BUILD/static_checks.o ]]; then record "build static_checks" PASS "compile-time checks hold"
else record "build static_checks" FAIL "see $BUILD/static_checks.build.log"; fi

for t in "${TESTS[@]}"; do
  cat "$BUILD/$t.build.log" >>"$LOG"
  if [[ ! -x $BUILD/$t ]]; then
    record "build $t" FAIL "see $BUILD/$t.build.log"
    continue
  fi
  spills=$(grep -o '[0-9]* bytes spill stores' "$BUILD/$t.build.log" | awk '{s += $1} END {print s + 0}')
  regs=$(grep -o 'Used [0-9]* registers' "$BUILD/$t.build.log" | awk '{print $2}' | sort -n | tail -1)
  record "build $t" PASS "max ${regs:-?} registers, ${spills} spill bytes"

  note "== run $t"
  out=$(timeout "$RUN_TIMEOUT" "$BUILD/$t" 2>&1)
  rc=$?
  printf '%s\n' "$out" | tee -a "$LOG"
  case ${KIND[$t]} in
    verdict)
      if [[ $rc -eq 0 ]] && ! grep -q '^FAIL' <<<"$out" && grep -q '^PASS' <<<"$out"; then
        record "run $t" PASS "$(grep -c '^PASS' <<<"$out") checks passed"
      else
        record "run $t" FAIL "exit $rc; $(grep -m1 '^FAIL\|error' <<<"$out")"
      fi ;;
    trap)
      if [[ $rc -eq 0 ]] && grep -q "tf: barrier '" <<<"$out"; then
        record "run $t" PASS "trapped, named: $(grep -m1 -o "barrier '[^']*'" <<<"$out")"
      elif [[ $rc -eq 0 ]]; then
        record "run $t" FAIL "trapped, but the device message did not reach stdout"
      else
        record "run $t" FAIL "exit $rc$([[ $rc -eq 124 ]] && echo ': hung until timeout')"
      fi ;;
  esac
done

# Memory errors gate the run (single_tile, and the generated GEMM at its
# small shape); racecheck's view of TMA/WGMMA (async-proxy) accesses to
# shared memory is informational.
sanitize() {  # TOOL TEST [ARGS...]
  local tool=$1 test=$2 out rc summary
  shift 2
  note "== compute-sanitizer --tool $tool $test $*"
  out=$(timeout 300 compute-sanitizer --tool "$tool" "$BUILD/$test" "$@" 2>&1)
  rc=$?
  printf '%s\n' "$out" | tail -4 | tee -a "$LOG"
  summary=$(grep -m1 -o '[A-Z]* SUMMARY: .*' <<<"$out")
  if [[ $rc -eq 0 ]] && grep -q 'SUMMARY: 0 ' <<<"$summary"; then
    record "sanitizer $tool $test" PASS "$summary"
  elif [[ $tool == memcheck ]]; then
    record "sanitizer $tool $test" FAIL "exit $rc; $summary"
  else
    record "sanitizer $tool $test" INFO "exit $rc; $summary"
  fi
}
if command -v compute-sanitizer >/dev/null; then
  runs=()
  selected single_tile && runs+=("memcheck single_tile" "racecheck single_tile")
  # Every generated GEMM (the gemm_*/ folders) at its small shape; every
  # row kernel test (rows_*/) at its shapes, all small.
  for t in "${TESTS[@]}"; do
    [[ $t == gemm_* && -x test/gpu/$t/build.sh ]] && runs+=("memcheck $t --small")
    [[ $t == rows_* ]] && runs+=("memcheck $t")
  done
  for run in "${runs[@]}"; do
    read -r tool test args <<<"$run"
    if [[ -x $BUILD/$test ]]; then
      sanitize "$tool" "$test" $args
    else
      record "sanitizer $tool $test" FAIL "the binary is missing"
    fi
  done
else
  record "sanitizer" FAIL "compute-sanitizer is missing"
fi

# The instructions the tests exist for must be in the machine code. The
# hand-written tests: a name's prefix (HGMMA, any form). The generated GEMMs
# and row kernels (gemm_*/, rows_*/): the names their sources or build.sh
# list in a "SASS:" line
# (their HGMMA or QGMMA form, the TMA loads and stores), as check_ptxas.py
# reads them in CI: a name and its longer forms after a dot, or, ending in
# $, the name alone (f16's HGMMA.64x256x16.F32$ is not .F32.BF16).
sass_count() { cuobjdump -sass "$BUILD/$1" 2>/dev/null | grep -cE -- "$2"; }
checks=("single_tile HGMMA" "single_tile UTMALDG" "pipeline HGMMA"
        "pipeline UTMALDG" "pipeline UTMASTG" "pipeline USETMAXREG"
        "wgmma_forms HGMMA" "wgmma_forms QGMMA" "launch_gemm HGMMA")
for t in "${TESTS[@]}"; do
  [[ ($t == gemm_* || $t == rows_*) && -x test/gpu/$t/build.sh ]] || continue
  for w in $(sed -n 's,^\(//\|#\) SASS: ,,p' test/gpu/"$t"/*.sh test/gpu/"$t"/*.cpp 2>/dev/null); do
    w=${w#*\*} # N*NAME: the count is CI's check (check_ptxas.py); here, at least one
    if [[ $w == *\$ ]]; then w=${w%\$}; tail='([^.[:alnum:]_]|$)'; else tail='([^[:alnum:]_]|$)'; fi
    checks+=("$t ${w//./\\.}$tail")
  done
done
for check in "${checks[@]}"; do
  read -r test pattern <<<"$check"
  [[ -x $BUILD/$test ]] || continue
  name=${pattern%%(*}
  n=$(sass_count "$test" "$pattern")
  if [[ $n -gt 0 ]]; then record "sass $test ${name//\\/}" PASS "$n instructions"
  else record "sass $test ${name//\\/}" FAIL "none in cuobjdump -sass"; fi
done

if [[ $CUBLAS -eq 1 ]]; then
  note "== cuBLAS baseline (PyTorch)"
  out=$(timeout 300 python3 test/gpu/cublas_baseline.py "${CUBLAS_SHAPES[@]}" 2>&1)
  rc=$?
  printf '%s\n' "$out" | tee -a "$LOG"
  if [[ $rc -eq 0 ]]; then
    while read -r line; do record "cublas ${line%% *}" PASS "${line#* }"; done < <(grep '^CUBLAS' <<<"$out" | cut -d' ' -f2-)
  else
    record "cublas baseline" FAIL "exit $rc"
  fi
fi

if [[ $SUSTAINED -eq 1 ]]; then
  for t in "${TESTS[@]}"; do
    [[ $t == gemm_* && -x test/gpu/$t/build.sh && -x $BUILD/$t ]] || continue
    note "== $t --sustained"
    out=$(timeout 120 "$BUILD/$t" --sustained 2>&1)
    rc=$?
    printf '%s\n' "$out" | tee -a "$LOG"
    if [[ $rc -eq 0 ]] && grep -q '^SUSTAINED' <<<"$out"; then
      record "sustained $t" PASS "$(grep -m1 -o 'ours/baseline [0-9.]*' <<<"$out")"
    else
      record "sustained $t" FAIL "exit $rc; $(grep -m1 '^FAIL\|error' <<<"$out")"
    fi
  done
fi

note ""
note "== summary"
for line in "${SUMMARY[@]}"; do note "$line"; done
[[ -n ${OUT:-} ]] && cp "$LOG" "$OUT/run.log"
exit $FAILED
