"""Times the tf GEMM extension beside torch.matmul (cuBLAS).

    python3 examples/torch/bench_gemm.py [M,N,K ...]   (default 8192,8192,8192 1000,1544,1000)

Per shape and side: 10 warm-up launches, then 50 launches back to back, each
between its own pair of CUDA events (recorded on the default stream, no
synchronisation in between); the line gives the median. The two sides are
timed in alternating rounds of 10 so that clocks and temperature drift
alike for both.
"""
import statistics
import sys

import torch

import tf_gemm

WARMUP, ROUNDS, PER_ROUND = 10, 5, 10


def timed(fn, times):
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(PER_ROUND)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    times.extend(start.elapsed_time(end) for start, end in events)


def bench(ext, M, N, K):
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    sides = {"tf": lambda: ext.gemm(a, b), "torch.matmul": lambda: torch.matmul(a, b)}
    times = {name: [] for name in sides}
    for fn in sides.values():
        for _ in range(WARMUP):
            fn()
    for _ in range(ROUNDS):
        for name, fn in sides.items():
            timed(fn, times[name])
    flop = 2.0 * M * N * K
    ms = {name: statistics.median(t) for name, t in times.items()}
    tflops = {name: flop / (m * 1e-3) / 1e12 for name, m in ms.items()}
    print(f"TIMING {M}x{N}x{K} bf16: tf {ms['tf']:.3f} ms ({tflops['tf']:.1f} TFLOP/s), "
          f"torch.matmul {ms['torch.matmul']:.3f} ms ({tflops['torch.matmul']:.1f} TFLOP/s), "
          f"tf/torch {tflops['tf'] / tflops['torch.matmul']:.3f} "
          f"(median of {ROUNDS * PER_ROUND} launches each)")


def main(argv):
    shapes = [tuple(int(x) for x in arg.split(",")) for arg in argv] or \
        [(8192, 8192, 8192), (1000, 1544, 1000)]
    ext = tf_gemm.load()
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}")
    for M, N, K in shapes:
        bench(ext, M, N, K)


if __name__ == "__main__":
    main(sys.argv[1:])
