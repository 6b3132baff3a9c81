#!/usr/bin/env bash
# SM clock, power and bf16 matrix rate under a 6-second bf16 matrix-product load
# through PyTorch (nvidia-smi sampled once the load is running). measure_facts.sh
# calls this; prints "key = value" lines.
set -u
R=/tmp/tf-gpu-load.ready
rm -f "$R"
timeout 60 python3 - "$R" <<'PY' &
import sys, time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
for _ in range(3): c = a @ b
torch.cuda.synchronize()
open(sys.argv[1], "w").write("ready")
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
t = time.time(); best = 0.0
while time.time() - t < 6.0:
    s.record()
    for _ in range(20): c = a @ b
    e.record(); e.synchronize()
    best = max(best, 20 * 2 * 8192**3 / (s.elapsed_time(e) / 1e3) / 1e12)
print("gpu_load.bf16_matmul_8192_best_tflops =", round(best, 1))
PY
P=$!
for i in $(seq 1 200); do [ -f "$R" ] && break; sleep 0.1; done
sleep 1.0
q() { nvidia-smi --query-gpu="$1" --format=csv,noheader,nounits 2>/dev/null | head -1; }
echo "gpu_load.clocks_sm_mhz_samples = $(for i in 1 2 3 4 5 6; do q clocks.sm; sleep 0.5; done | paste -sd' ')"
echo "gpu_load.clocks_mem_mhz = $(q clocks.mem)"
echo "gpu_load.power_draw_w = $(q power.draw)"
echo "gpu_load.clocks_throttle_reasons_active = $(q clocks_throttle_reasons.active)"
wait $P
