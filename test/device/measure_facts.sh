#!/usr/bin/env bash
# Measures the hardware facts of the GPU machine (its Intel AMX host CPU and
# its GPU) for targets/devices/intel.xeon_amx.toml and nvidia.h200_sxm.toml.
# Run on the device machine from the repository root:
#   bash test/device/measure_facts.sh            (writes under $OUT, else ./measure-out)
# Output: $OUT/facts.txt ("key = value" lines), $OUT/facts.json (the same as
# one JSON object of strings), $OUT/log.txt (raw lscpu, caches, nvidia-smi).
# Builds test/device/{amx_peak.cpp,stream_bw.cpp,gpu_props.cu,gpu_memory.cu}
# there; falls back to binaries in build-device/ (carried) if a compiler is
# missing. Also runs amx_sharing.sh (AMX scaling over the vCPUs),
# gpu_memory (HBM and L2 read bandwidth of all SMs, device-to-device copy)
# and gpu_load.sh (clocks under a bf16 matrix-product load). About 100 s on
# the machine; every program runs under `timeout`. Results: docs/targets.md,
# "Measured facts".
set -u
OUT=${OUT:-$PWD/measure-out}
mkdir -p "$OUT"
SRC=$(cd "$(dirname "$0")" && pwd)
BIN=/tmp/tf-measure-bin
mkdir -p "$BIN"
FACTS=$OUT/facts.txt
LOG=$OUT/log.txt
: >"$FACTS"
: >"$LOG"
fact() { echo "$1 = $2" >>"$FACTS"; }
section() { echo "===== $*" >>"$LOG"; }
logcmd() { section "$*"; timeout 30 "$@" >>"$LOG" 2>&1; echo "(rc=$?)" >>"$LOG"; }

fact date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
fact host.kernel "$(uname -r)"

# ---- builds ---------------------------------------------------------------
build() {  # name, command...
  local name=$1; shift
  section "build $name: $*"
  if timeout 120 "$@" >>"$LOG" 2>&1; then fact "build.$name" "built here"
  elif [ -x "build-device/$name" ]; then cp "build-device/$name" "$BIN/$name"; fact "build.$name" "carried build-device/$name"
  else fact "build.$name" "failed"; fi
}
build amx_peak g++ -O2 -std=c++20 -mamx-tile -mamx-bf16 -pthread "$SRC/amx_peak.cpp" -o "$BIN/amx_peak"
build stream_bw g++ -O3 -march=native -fopenmp "$SRC/stream_bw.cpp" -o "$BIN/stream_bw"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
build gpu_props "$NVCC" -O2 -arch=sm_90 "$SRC/gpu_props.cu" -o "$BIN/gpu_props"
build gpu_memory "$NVCC" -O2 -arch=sm_90 "$SRC/gpu_memory.cu" -o "$BIN/gpu_memory"
fact tool.gxx "$(g++ --version 2>/dev/null | head -1)"
fact tool.nvcc "$("$NVCC" --version 2>/dev/null | tail -2 | head -1)"

# ---- CPU ------------------------------------------------------------------
logcmd lscpu
logcmd lscpu -C
logcmd lscpu -e
section "/proc/cpuinfo (cpu 0)"; awk '/^$/{exit} {print}' /proc/cpuinfo >>"$LOG"
section "/sys cache"; for d in /sys/devices/system/cpu/cpu0/cache/index*; do
  echo "$d level=$(cat $d/level) type=$(cat $d/type) size=$(cat $d/size) ways=$(cat $d/ways_of_associativity 2>/dev/null) line=$(cat $d/coherency_line_size 2>/dev/null) shared_cpu_list=$(cat $d/shared_cpu_list)" >>"$LOG"
done
section "cpufreq"; ls /sys/devices/system/cpu/cpu0/cpufreq/ >>"$LOG" 2>&1; cat /sys/devices/system/cpu/cpu0/cpufreq/{cpuinfo_min_freq,cpuinfo_max_freq,base_frequency,scaling_cur_freq} >>"$LOG" 2>&1
logcmd cat /proc/meminfo
logcmd numactl -H
section "dmesg tsc/cpu"; (dmesg 2>/dev/null | grep -iE 'tsc|MHz|smpboot|x86/fpu|AMX|Hypervisor' | head -40) >>"$LOG"

lsc() { lscpu | sed -n "s/^$1:[[:space:]]*//p" | head -1; }
fact cpu.model_name "$(lsc 'Model name')"
fact cpu.vendor "$(lsc 'Vendor ID')"
fact cpu.family_model_stepping "$(lsc 'CPU family')/$(lsc 'Model')/$(lsc 'Stepping')"
fact cpu.hypervisor "$(lsc 'Hypervisor vendor')"
fact cpu.cpus "$(lsc 'CPU(s)')"
fact cpu.sockets "$(lsc 'Socket(s)')"
fact cpu.cores_per_socket "$(lsc 'Core(s) per socket')"
fact cpu.threads_per_core "$(lsc 'Thread(s) per core')"
fact cpu.numa_nodes "$(lsc 'NUMA node(s)')"
fact cpu.nproc "$(nproc)"
fact cpu.lscpu_max_mhz "$(lsc 'CPU max MHz')"
fact cpu.lscpu_min_mhz "$(lsc 'CPU min MHz')"
fact cpu.bogomips "$(lsc 'BogoMIPS')"
fact cpu.cpuinfo_mhz_cpu0 "$(awk -F': ' '/^cpu MHz/{print $2; exit}' /proc/cpuinfo)"
fact cpu.cpufreq_max_khz "$(cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq 2>/dev/null || echo absent)"
fact cpu.cpufreq_base_khz "$(cat /sys/devices/system/cpu/cpu0/cpufreq/base_frequency 2>/dev/null || echo absent)"
fact cpu.lscpu_l1d "$(lsc 'L1d cache')"
fact cpu.lscpu_l1i "$(lsc 'L1i cache')"
fact cpu.lscpu_l2 "$(lsc 'L2 cache')"
fact cpu.lscpu_l3 "$(lsc 'L3 cache')"
for d in /sys/devices/system/cpu/cpu0/cache/index*; do
  t=$(cat $d/type); l=$(cat $d/level)
  k="L${l}"; [ "$t" = Data ] && k="${k}d"; [ "$t" = Instruction ] && k="${k}i"
  fact "cpu.cache.$k.size_per_instance" "$(cat $d/size)"
  fact "cpu.cache.$k.shared_cpu_list" "$(cat $d/shared_cpu_list)"
  fact "cpu.cache.$k.ways" "$(cat $d/ways_of_associativity 2>/dev/null)"
done
fact cpu.getconf.LEVEL1_DCACHE_SIZE "$(getconf LEVEL1_DCACHE_SIZE 2>/dev/null)"
fact cpu.getconf.LEVEL2_CACHE_SIZE "$(getconf LEVEL2_CACHE_SIZE 2>/dev/null)"
fact cpu.getconf.LEVEL3_CACHE_SIZE "$(getconf LEVEL3_CACHE_SIZE 2>/dev/null)"
fact cpu.amx_flags "$(grep -o 'amx[a-z0-9_]*' /proc/cpuinfo | sort -u | tr '\n' ' ')"
fact cpu.avx512_flags "$(grep -oE 'avx512[a-z0-9_]*' /proc/cpuinfo | sort -u | tr '\n' ' ')"
fact mem.MemTotal_kB "$(awk '/^MemTotal/{print $2}' /proc/meminfo)"
fact mem.free_b_total "$(free -b | awk '/^Mem:/{print $2}')"

# one CPU per physical core (first of each thread_siblings_list)
CORES=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do cut -d, -f1 <"$c/topology/thread_siblings_list" | cut -d- -f1; done | sort -n | uniq | paste -sd,)
ALL=$(seq -s, 0 $(( $(nproc) - 1 )))
fact cpu.one_cpu_per_core "$CORES"

# ---- AMX ------------------------------------------------------------------
# sample /proc/cpuinfo MHz during the all-core run (a VM usually shows a constant)
( sleep 3; for i in 1 2 3; do awk -F': ' '/^cpu MHz/{printf "%s ", $2}' /proc/cpuinfo; echo; sleep 0.5; done ) >"$BIN/mhz_samples" 2>&1 &
SAMPLER=$!
section "amx_peak 1.0 0 $ALL $CORES"
timeout 120 "$BIN/amx_peak" 1.0 0 "$ALL" $( [ "$CORES" != "$ALL" ] && echo "$CORES" ) >"$BIN/amx.txt" 2>>"$LOG"
fact amx.rc $?
wait $SAMPLER
cat "$BIN/amx.txt" >>"$FACTS"
fact cpu.cpuinfo_mhz_samples_during_amx "$(tr '\n' '|' <"$BIN/mhz_samples")"
# does the AMX rate scale over the vCPUs? (pairs, 1..16 threads, repeats)
section "amx_sharing.sh"
timeout 200 bash "$SRC/amx_sharing.sh" "$BIN/amx_peak" >>"$FACTS" 2>>"$LOG"

# ---- DRAM bandwidth -------------------------------------------------------
for run in all one; do
  if [ $run = all ]; then n=$(nproc); else n=1; fi
  section "stream_bw $run ($n threads)"
  OMP_NUM_THREADS=$n OMP_PROC_BIND=spread OMP_PLACES=cores timeout 120 "$BIN/stream_bw" $((1<<27)) 10 "stream.t$n" >"$BIN/stream.txt" 2>>"$LOG"
  fact "stream.t$n.rc" $?
  cat "$BIN/stream.txt" >>"$FACTS"
done

# ---- GPU ------------------------------------------------------------------
section gpu_props
timeout 60 "$BIN/gpu_props" >"$BIN/gpu.txt" 2>>"$LOG"; fact gpu.props_rc $?
cat "$BIN/gpu.txt" >>"$FACTS"
logcmd nvidia-smi
logcmd nvidia-smi -q -d CLOCK
logcmd nvidia-smi -q -d MEMORY,POWER,PERFORMANCE
q() { nvidia-smi --query-gpu="$1" --format=csv,noheader,nounits 2>/dev/null | head -1; }
fact smi.name "$(q name)"
fact smi.driver_version "$(q driver_version)"
fact smi.vbios_version "$(q vbios_version)"
fact smi.clocks_max_sm_mhz "$(q clocks.max.sm)"
fact smi.clocks_max_graphics_mhz "$(q clocks.max.graphics)"
fact smi.clocks_max_mem_mhz "$(q clocks.max.mem)"
fact smi.clocks_default_applications_graphics_mhz "$(q clocks.default_applications.graphics)"
fact smi.clocks_default_applications_mem_mhz "$(q clocks.default_applications.memory)"
fact smi.clocks_applications_graphics_mhz "$(q clocks.applications.graphics)"
fact smi.clocks_sm_idle_mhz "$(q clocks.sm)"
fact smi.clocks_mem_idle_mhz "$(q clocks.mem)"
fact smi.memory_total_mib "$(q memory.total)"
fact smi.power_limit_w "$(q power.limit)"
fact smi.power_max_limit_w "$(q power.max_limit)"
fact smi.power_default_limit_w "$(q power.default_limit)"
# HBM and L2 read bandwidth of all SMs, device-to-device copy, load latencies
section gpu_memory
timeout 60 "$BIN/gpu_memory" 10 >>"$FACTS" 2>>"$LOG"; fact gpu_mem.rc $?
# SM clock, power and matrix rate under a bf16 matrix-product load
section "gpu_load.sh"
timeout 90 bash "$SRC/gpu_load.sh" >>"$FACTS" 2>>"$LOG"

# ---- JSON -----------------------------------------------------------------
python3 - "$FACTS" "$OUT/facts.json" <<'PY'
import json, sys
d = {}
for line in open(sys.argv[1]):
    if " = " in line:
        k, v = line.rstrip("\n").split(" = ", 1)
        d[k.strip()] = v.strip()
json.dump(d, open(sys.argv[2], "w"), indent=1, sort_keys=True)
PY
cat "$FACTS"
