#!/usr/bin/env python3
"""cuBLAS bf16 GEMM rate through PyTorch: the baseline for tf's GEMMs.

    python3 test/gpu/cublas_baseline.py M,N,K [M,N,K ...]

For each shape: random bf16 A (M x K) and B (K x N), out = A @ B in bf16
with f32 accumulation (cuBLAS), timed with CUDA events after a warm-up over
three rotating input sets (so the operands are not all in L2), median of
the timed runs. Prints one line per shape:

    CUBLAS M,N,K <TFLOP/s> TFLOP/s (<ms> ms median of <n>)
"""
import sys

import torch


def rate(m: int, n: int, k: int, runs: int = 30) -> tuple[float, float]:
    sets = [(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
             torch.randn(k, n, device="cuda", dtype=torch.bfloat16))
            for _ in range(3)]
    for a, b in sets * 3:  # warm-up: handles, kernels, clocks
        a @ b
    times = []
    for i in range(runs):
        a, b = sets[i % len(sets)]
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        a @ b
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    ms = sorted(times)[len(times) // 2]
    return 2.0 * m * n * k / (ms * 1e-3) / 1e12, ms


def main() -> int:
    if not torch.cuda.is_available():
        print("SKIP cublas_baseline: no CUDA device")
        return 77
    for shape in sys.argv[1:]:
        m, n, k = (int(x) for x in shape.split(","))
        tflops, ms = rate(m, n, k)
        print(f"CUBLAS {m},{n},{k} {tflops:.0f} TFLOP/s ({ms:.3f} ms median of 30)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
