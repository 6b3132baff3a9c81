#!/usr/bin/env bash
# Does the AMX rate scale over the 16 vCPUs? (measure_facts.sh calls this.)
# Usage: amx_sharing.sh AMX_PEAK_BINARY  -> "key = value" lines on stdout.
#  1. pairs (0,j), j = 1..15, AMX only, 0.3 s: a pair that shares one physical
#     core's AMX unit (SMT siblings on the host) halves each thread's rate;
#  2. scaling 1, 2, 4, 8, 16 threads, and 16 threads three times (AMX only, 1 s);
#  3. the full run (with the clock calibration) on 1 and 16 threads again.
set -u
B=$1
N=$(nproc)
pairs=$(for j in $(seq 1 $((N - 1))); do printf '0,%d ' "$j"; done)
AMX_QUICK=1 timeout 60 "$B" 0.3 $pairs | sed 's/^amx\./amxpair./'
ALL=$(seq -s, 0 $((N - 1)))
EVEN=$(seq -s, 0 2 $((N - 1)))
AMX_QUICK=1 timeout 90 "$B" 1.0 0 0,1 0,1,2,3 0,1,2,3,4,5,6,7 "$EVEN" "$ALL" "$ALL" "$ALL" | sed 's/^amx\./amxscale./'
timeout 90 "$B" 1.0 0 "$ALL" | sed 's/^amx\./amxrepeat./'
