#!/usr/bin/env python3
"""bench/rows/bench.py - tf's row kernels against PyTorch, in one process.

    bench/rows/bench.py LIB [--shapes RxC,...] [--kernels NAME,...]
                        [--csv FILE] [--png FILE] [--rounds N]

LIB is the libtf_rows.so bench/rows/build.sh builds: the kernels of
examples/rows, each called as a user calls it (tf::launch on the default
stream, through ctypes). Per kernel and shape, on the same random bf16 inputs
(never zero): tf's kernels (the whole-row forms where a row fits their
tile: a warp's, a CTA's; the loop form always), PyTorch eager, torch.compile of the same function
(dynamic=False, default mode), and a device-to-device copy of the input
(`dst.copy_(src)`, the bandwidth the issue measures against).

Checks: every side's output against a float64 reference computed on the GPU
from the same inputs, ||out - ref|| / ||ref|| <= 1e-2 and no element
non-finite; tf's outputs are poisoned (NaN) before their checked launch.

Timing: S input sets per shape (the fewest, at least 2, whose bytes exceed
twice the L2), launches rotating through them so the L2 never holds the
previous launch's data; N interleaved rounds (every side once per round);
per side and round W warm-up launches then T launches back to back between
two CUDA events (T for a window of about 4 ms, 10 to 200); per side the
median round. GB/s counts the bytes a kernel must move: each input read
once, each output written once.

Prints one line per kernel, shape and side, then a table; writes the rows to
--csv and a plot to --png (matplotlib) when given.
"""
import argparse
import csv
import ctypes
import math
import statistics
import sys

import torch
import torch.nn.functional as F

RMS_EPS = 1e-6  # examples/rows/rmsnorm.cpp
LN_EPS = 1e-5  # examples/rows/layernorm.cpp
WARP_COLS = 1024  # rows::BN: the `_rows` kernels take rows up to this
CTA_COLS = 32768  # the `_cta` kernels' longest row (rows::*_cta_kernels)
ISSUE_SHAPES = [(8192, 8192), (32768, 4096), (4096, 32768), (65536, 1024)]


def random_bf16(shape, lo=-1.0, hi=1.0):
    """Uniform in [lo, hi], away from zero: |v| >= 1/64."""
    t = torch.empty(shape, device="cuda", dtype=torch.float32).uniform_(lo, hi)
    t = torch.where(t.abs() < 1 / 64, torch.full_like(t, 1 / 64), t)
    return t.to(torch.bfloat16)


def rms_norm64(h, w):
    h = h.double()
    return h * torch.rsqrt(h.square().mean(-1, keepdim=True) + RMS_EPS) * w.double()


class Form:
    """One of tf's kernels for a row computation: its exported symbol
    (tf_NAME), the longest row it takes (None: any), the tensors it takes
    by name (the inputs, and "y" the output), and its eps."""

    def __init__(self, name, max_cols, tensors, eps=None):
        self.name, self.max_cols, self.tensors, self.eps = name, max_cols, tensors, eps

    def bind(self, lib):
        self.function = getattr(lib, "tf_" + self.name)
        self.function.restype = None
        self.function.argtypes = ([ctypes.c_void_p] * len(self.tensors)
                                  + [ctypes.c_int64, ctypes.c_int64]
                                  + ([ctypes.c_float] if self.eps is not None else []))

    def __call__(self, tensors, R, C):
        args = [t.data_ptr() for t in (tensors[n] for n in self.tensors)] + [R, C]
        self.function(*(args + ([self.eps] if self.eps is not None else [])))


class Kernel:
    """One row computation: its inputs, PyTorch's form, its float64
    reference, and tf's forms. `outputs` names what the computation writes
    (PyTorch's results in this order; tf writes "y" and updates "r" in
    place), `bytes_per_elem` the bytes it moves per matrix element."""

    def __init__(self, name, make, torch_fn, reference, forms, outputs, bytes_per_elem):
        self.name = name
        self.make = make  # (R, C) -> dict of input tensors
        self.torch_fn = torch_fn  # (**inputs) -> tuple of outputs
        self.reference = reference  # (**inputs) -> tuple of float64 outputs
        self.tf_forms = forms
        self.outputs = outputs
        self.bytes_per_elem = bytes_per_elem

    def forms(self, cols):
        return [f for f in self.tf_forms if f.max_cols is None or cols <= f.max_cols]


def add_bias_torch(x, bias):
    return (x + bias,)


def softmax_torch(x):
    return (torch.softmax(x, -1),)


def rmsnorm_torch(x, w):
    return (F.rms_norm(x, (x.shape[-1],), w, RMS_EPS),)


def residual_rmsnorm_torch(x, r, w):
    h = x + r
    return F.rms_norm(h, (h.shape[-1],), w, RMS_EPS), h


def layernorm_torch(x, w, b):
    return (F.layer_norm(x, (x.shape[-1],), w, b, LN_EPS),)


def residual_reference(x, r, w):
    # tf and PyTorch both store h in bf16 and normalise that.
    h = (x.float() + r.float()).to(torch.bfloat16)
    return rms_norm64(h, w), h.double()


KERNELS = [
    Kernel("add_bias",
           lambda R, C: {"x": random_bf16((R, C)), "bias": random_bf16((C,))},
           add_bias_torch,
           lambda x, bias: (x.double() + bias.double(),),
           [Form("add_bias", None, ["x", "bias", "y"])],
           ["y"], 4),
    Kernel("softmax",
           lambda R, C: {"x": random_bf16((R, C), -8.0, 8.0)},
           softmax_torch,
           lambda x: (torch.softmax(x.double(), -1),),
           [Form("softmax_rows", WARP_COLS, ["x", "y"]),
            Form("softmax_cta", CTA_COLS, ["x", "y"]),
            Form("softmax_online", None, ["x", "y"])],
           ["y"], 4),
    Kernel("rmsnorm",
           lambda R, C: {"x": random_bf16((R, C)), "w": random_bf16((C,), 0.5, 1.5)},
           rmsnorm_torch,
           lambda x, w: (rms_norm64(x, w),),
           [Form("rmsnorm_rows", WARP_COLS, ["x", "w", "y"], RMS_EPS),
            Form("rmsnorm_cta", CTA_COLS, ["x", "w", "y"], RMS_EPS),
            Form("rmsnorm_loop", None, ["x", "w", "y"], RMS_EPS)],
           ["y"], 4),
    Kernel("residual_rmsnorm",
           lambda R, C: {"x": random_bf16((R, C)), "r": random_bf16((R, C)),
                         "w": random_bf16((C,), 0.5, 1.5)},
           residual_rmsnorm_torch,
           residual_reference,
           [Form("residual_rmsnorm_rows", WARP_COLS, ["x", "r", "w", "y"], RMS_EPS),
            Form("residual_rmsnorm_cta", CTA_COLS, ["x", "r", "w", "y"], RMS_EPS),
            Form("residual_rmsnorm_loop", None, ["x", "r", "w", "y"], RMS_EPS)],
           ["y", "r"], 8),
    Kernel("layernorm",
           lambda R, C: {"x": random_bf16((R, C)), "w": random_bf16((C,), 0.5, 1.5),
                         "b": random_bf16((C,))},
           layernorm_torch,
           lambda x, w, b: (F.layer_norm(x.double(), (x.shape[-1],), w.double(),
                                         b.double(), LN_EPS),),
           [Form("layernorm_rows", WARP_COLS, ["x", "w", "b", "y"], LN_EPS),
            Form("layernorm_cta", CTA_COLS, ["x", "w", "b", "y"], LN_EPS),
            Form("layernorm_loop", None, ["x", "w", "b", "y"], LN_EPS)],
           ["y"], 4),
]


def load(path):
    lib = ctypes.CDLL(path)
    for k in KERNELS:
        for form in k.tf_forms:
            form.bind(lib)
    return lib


def relative_error(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return math.inf
    return ((out - ref).norm() / ref.norm()).item()


def check(what, outs, refs, failures):
    errors = [relative_error(o, r) for o, r in zip(outs, refs)]
    worst = max(errors)
    ok = worst <= 1e-2
    print(f"{'PASS' if ok else 'FAIL'} {what}: ||out - ref|| / ||ref|| = {worst:.2e}", flush=True)
    if not ok:
        failures.append(what)
    return worst


def timed(call, count, launches, warmup):
    """Seconds per launch of call(set index), `launches` back to back
    rotating through `count` input sets, after `warmup` launches."""
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    for i in range(warmup):
        call(i % count)
    start.record()
    for i in range(launches):
        call(i % count)
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1e-3 / launches


def bench(kernel, R, C, rounds, failures):
    """Checks and times every side of `kernel` at R x C; returns rows."""
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    set_bytes = kernel.bytes_per_elem * R * C
    count = max(2, math.ceil(2 * l2 / set_bytes))
    sets = [kernel.make(R, C) for _ in range(count)]
    refs = kernel.reference(**sets[0])
    compiled = torch.compile(kernel.torch_fn, dynamic=False)
    what = f"{kernel.name} {R}x{C}"

    sides = {}  # name -> call(input set index)
    errors = {}
    for form in kernel.forms(C):
        # The checked launch: outputs poisoned, an updated residual a copy.
        tensors = dict(sets[0])
        tensors["y"] = torch.full((R, C), math.nan, device="cuda", dtype=torch.bfloat16)
        if "r" in kernel.outputs:
            tensors["r"] = sets[0]["r"].clone()
        form(tensors, R, C)
        torch.cuda.synchronize()
        errors[form.name] = check(f"{what} tf {form.name}",
                                  [tensors[n] for n in kernel.outputs], refs, failures)
        # Timed launches write one y; each adds x to its set's residual
        # again (the same traffic; values stay finite over a few hundred).
        y = torch.empty((R, C), device="cuda", dtype=torch.bfloat16)
        sides["tf " + form.name] = lambda k, form=form, y=y: form({**sets[k], "y": y}, R, C)
    for name, fn in (("eager", kernel.torch_fn), ("compile", compiled)):
        errors[name] = check(f"{what} {name}", fn(**sets[0]), refs, failures)
        sides[name] = lambda k, fn=fn: fn(**sets[k])
    copies = [torch.empty((R, C), device="cuda", dtype=torch.bfloat16) for _ in sets]
    sides["copy"] = lambda k: copies[k].copy_(sets[k]["x"])

    estimate = timed(sides["eager"], count, 10, 3)
    launches = min(200, max(10, int(4e-3 / estimate)))
    warmup = max(3, launches // 4)
    seconds = {name: [] for name in sides}
    for _ in range(rounds):
        for name, call in sides.items():
            seconds[name].append(timed(call, count, launches, warmup))
    torch.cuda.synchronize()

    copy_bytes = 4 * R * C  # the copy: x read once, written once
    copy_rate = copy_bytes / statistics.median(seconds["copy"])
    kernel_bytes = kernel.bytes_per_elem * R * C
    rows = []
    for name, times in seconds.items():
        t = statistics.median(times)
        moved = copy_bytes if name == "copy" else kernel_bytes
        rate = moved / t
        rows.append({"kernel": kernel.name, "rows": R, "cols": C, "side": name,
                     "us": t * 1e6, "GBps": rate * 1e-9,
                     "of_copy": rate / copy_rate,
                     "spread": (max(times) - min(times)) / t,
                     "error": errors.get(name, "")})
    best_torch = max(r["GBps"] for r in rows if r["side"] in ("eager", "compile"))
    for r in rows:
        r["of_best_torch"] = r["GBps"] / best_torch
        print(f"BENCH {kernel.name} {R}x{C} {r['side']}: {r['us']:.1f} us, "
              f"{r['GBps']:.0f} GB/s, {r['of_copy']:.3f} of copy, "
              f"{r['of_best_torch']:.3f} of best torch", flush=True)
    return rows


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    kernels = list(dict.fromkeys(r["kernel"] for r in rows))
    fig, axes = plt.subplots(len(kernels), 1, figsize=(10, 3.2 * len(kernels)), squeeze=False)
    for ax, kernel in zip(axes[:, 0], kernels):
        mine = [r for r in rows if r["kernel"] == kernel]
        shapes = list(dict.fromkeys((r["rows"], r["cols"]) for r in mine))
        sides = list(dict.fromkeys(r["side"] for r in mine))
        width = 0.8 / len(sides)
        for j, side in enumerate(sides):
            values = [next((r["GBps"] for r in mine if (r["rows"], r["cols"]) == s
                            and r["side"] == side), 0) for s in shapes]
            ax.bar([i + j * width for i in range(len(shapes))], values, width, label=side)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(shapes))])
        ax.set_xticklabels([f"{r}x{c}" for r, c in shapes])
        ax.set_ylabel("GB/s")
        ax.set_title(kernel)
        ax.legend(fontsize=7, ncol=len(sides))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lib", help="libtf_rows.so from bench/rows/build.sh")
    parser.add_argument("--shapes", default=",".join(f"{r}x{c}" for r, c in ISSUE_SHAPES),
                        help="ROWSxCOLS,... (default: the issue's four)")
    parser.add_argument("--kernels", default=",".join(k.name for k in KERNELS),
                        help="which of " + ", ".join(k.name for k in KERNELS))
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--csv", help="write every row here")
    parser.add_argument("--png", help="plot GB/s per shape and side here")
    args = parser.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    wanted = args.kernels.split(",")
    unknown = set(wanted) - {k.name for k in KERNELS}
    if unknown:
        parser.error("unknown kernels: " + ", ".join(sorted(unknown)))

    # One compiled graph per kernel and shape.
    for option in ("cache_size_limit", "recompile_limit"):
        if hasattr(torch._dynamo.config, option):
            setattr(torch._dynamo.config, option, 256)
    torch.manual_seed(0)
    load(args.lib)  # binds every Form to its symbol
    print(f"device {torch.cuda.get_device_name(0)}, torch {torch.__version__}", flush=True)
    rows, failures = [], []
    writer = None
    out = open(args.csv, "w", newline="") if args.csv else None
    for kernel in (k for k in KERNELS if k.name in wanted):
        for R, C in shapes:
            for row in bench(kernel, R, C, args.rounds, failures):
                rows.append(row)
                if out:
                    if writer is None:
                        writer = csv.DictWriter(out, fieldnames=list(row))
                        writer.writeheader()
                    writer.writerow(row)
                    out.flush()
            torch.cuda.empty_cache()

    print("\n| kernel | shape | tf form | tf GB/s | of copy | eager | compile | copy | tf / best torch |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for kernel in dict.fromkeys(r["kernel"] for r in rows):
        for R, C in shapes:
            mine = {r["side"]: r for r in rows if r["kernel"] == kernel
                    and (r["rows"], r["cols"]) == (R, C)}
            if not mine:
                continue
            for side, r in mine.items():
                if not side.startswith("tf "):
                    continue
                print(f"| {kernel} | {R}x{C} | {side[3:]} | {r['GBps']:.0f} | "
                      f"{r['of_copy']:.2f} | {mine['eager']['GBps']:.0f} | "
                      f"{mine['compile']['GBps']:.0f} | {mine['copy']['GBps']:.0f} | "
                      f"{r['of_best_torch']:.2f} |")
    if args.png and rows:
        plot(rows, args.png)
    print(("FAIL: " + ", ".join(failures)) if failures else "PASS: every output checked")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
