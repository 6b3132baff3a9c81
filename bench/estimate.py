#!/usr/bin/env python3
"""bench/estimate.py CSV... [--tf TF] [--max-error E] [--max-median-error E]:
tf analyze's estimate (docs/analyze.md, "The estimate") beside the benchmark's
measurement, per shape: for every sustained row of the CSVs bench/run.sh
writes (gemm_nn.csv, gemm_nt.csv, gemm_nn_SCHEDULE.csv), `tf analyze --json`
on the source the row timed -- its `schedule` column: examples/gemm/NAME.cpp,
or the variant examples/gemm/variants.py writes; rows without the column
(runs before it existed) are optimal.cpp for NN and nt.cpp for NT -- at the
row's M, N, K, and the ratio of the predicted to the measured TFLOP/s. Prints a Markdown
table and the median and largest |ratio - 1|; the exit status is 1 when
either exceeds its bound (given), 2 when a query fails. With
--fit-step-overhead, also the median error the estimate would have with
each value of the fact pipeline.step_overhead from 0 to 150 ns, and the
value that minimises it (how the fact was fitted). With --rank, per shape
and layout timed with several schedules: the schedules in the order the
estimate ranks them and in the order measured, and how far the estimate's
first choice is from the measured best (the exit status is 1 when that
exceeds --max-rank-loss). Run from the repository root."""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

DEFAULT_SCHEDULE = {"NN": "optimal", "NT": "nt"}


def source_of(schedule, scratch):
    """The C++ source of a schedule: an example, else a variant written into
    the scratch folder."""
    example = os.path.join("examples", "gemm", schedule + ".cpp")
    if os.path.exists(example):
        return example
    variant = os.path.join(scratch, schedule + ".cpp")
    if not os.path.exists(variant):
        subprocess.run([sys.executable, "examples/gemm/variants.py", "write",
                        schedule, variant], check=True)
    return variant


def estimate(tf, source, m, n, k):
    """The estimate object of the source's kernel at M, N, K."""
    shape = f"a={m}x{k},b={k}x{n},out={m}x{n}"
    out = subprocess.run(
        [tf, "analyze", source, "--json", "--shape", shape, "--",
         "-std=c++20", "-Iinclude", "-Iexamples/gemm"],
        capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"estimate.py: tf analyze failed on {source} at {shape}:\n{out.stderr}")
    return json.loads(out.stdout)["files"][0]["kernels"][0]["analysis"]["estimate"]


def tflops_with(e, overhead):
    """The estimate's TFLOP/s had pipeline.step_overhead been \p overhead
    seconds (the estimate's own value without its step term)."""
    steps = e.get("busiest_steps") or 0
    flop_seconds = e["compute_seconds"] - (e.get("step_seconds") or 0)
    seconds = max(flop_seconds + steps * overhead, e["memory_seconds"])
    return e["useful_flop"] / seconds / 1e12


def fit_step_overhead(timed):
    """Prints the median error per value of the step overhead and the best."""
    print("\n| pipeline.step_overhead | median error | largest |")
    print("| ---: | ---: | ---: |")
    best = None
    for ns in range(0, 151, 5):
        errors = [abs(tflops_with(e, ns * 1e-9) / float(r["tf_tflops"]) - 1)
                  for r, _, e in timed]
        median = statistics.median(errors)
        print(f"| {ns} ns | {median:.3f} | {max(errors):.3f} |")
        if best is None or median < best[1]:
            best = (ns, median)
    print(f"\nthe smallest median error: {best[0]} ns ({best[1]:.3f})")


def rank(timed):
    """Prints, per shape and layout with several schedules, the estimate's
    order and the measured one; returns the largest loss of the estimate's
    first choice against the measured best."""
    groups = {}
    for r, schedule, e in timed:
        key = (r["layout"], int(r["M"]), int(r["N"]), int(r["K"]))
        groups.setdefault(key, []).append(
            (schedule, e["seconds"], float(r["tf_tflops"])))
    print("\n| M × N × K | layout | estimate's order | measured order (TFLOP/s) "
          "| first choice / best |")
    print("| --- | --- | --- | --- | ---: |")
    worst, ranked = 0.0, 0
    for (layout, m, n, k), schedules in groups.items():
        if len(schedules) < 2:
            continue
        ranked += 1
        by_estimate = sorted(schedules, key=lambda s: s[1])
        by_measured = sorted(schedules, key=lambda s: -s[2])
        share = by_estimate[0][2] / by_measured[0][2]
        worst = max(worst, 1 - share)
        print(f"| {m} × {n} × {k} | {layout} | "
              f"{', '.join(s[0] for s in by_estimate)} | "
              f"{', '.join(f'{s[0]} {s[2]:.0f}' for s in by_measured)} | "
              f"{share:.3f} |")
    within = sum(1 for schedules in groups.values() if len(schedules) > 1
                 and min(schedules, key=lambda s: s[1])[2] >=
                 0.97 * max(s[2] for s in schedules))
    print(f"\n{ranked} shapes ranked: the estimate's first choice within 3 % "
          f"of the measured best at {within}; the largest loss {worst:.3f}")
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--tf", default="build/bin/tf")
    parser.add_argument("--max-error", type=float)
    parser.add_argument("--max-median-error", type=float)
    parser.add_argument("--fit-step-overhead", action="store_true")
    parser.add_argument("--rank", action="store_true")
    parser.add_argument("--max-rank-loss", type=float)
    args = parser.parse_args()
    rows = []
    for path in args.csv:
        with open(path, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r["mode"] == "sustained"]
    # A schedule column only when a row times another than its layout's
    # example.
    label = any(r.get("schedule") not in (None, "", DEFAULT_SCHEDULE[r["layout"]])
                for r in rows)
    print("| M × N × K | layout |" + (" schedule |" if label else "") +
          " busy SMs | tiles on the busiest | bound | estimate TFLOP/s | "
          "measured | estimate / measured |")
    print("| --- | --- |" + (" --- |" if label else "") +
          " ---: | ---: | --- | ---: | ---: | ---: |")
    errors = []
    timed = []  # (row, schedule, estimate)
    with tempfile.TemporaryDirectory() as scratch:
        for r in rows:
            m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
            schedule = r.get("schedule") or DEFAULT_SCHEDULE[r["layout"]]
            e = estimate(args.tf, source_of(schedule, scratch), m, n, k)
            timed.append((r, schedule, e))
            measured = float(r["tf_tflops"])
            ratio = e["tflop_per_s"] / measured
            errors.append(abs(ratio - 1))
            print(f"| {m} × {n} × {k} | {r['layout']} |" +
                  (f" {schedule} |" if label else "") +
                  f" {e['busy_units']} | {e['busiest_tiles']} | {e['bound']} | "
                  f"{e['tflop_per_s']:.0f} | {measured:.0f} | {ratio:.2f} |")
    median, worst = statistics.median(errors), max(errors)
    print(f"\n{len(errors)} {'shape' if len(errors) == 1 else 'shapes'}: "
          f"median |estimate / measured - 1| "
          f"{median:.3f}, largest {worst:.3f}")
    if args.fit_step_overhead:
        fit_step_overhead(timed)
    failed = False
    if args.rank:
        loss = rank(timed)
        if args.max_rank_loss is not None and loss > args.max_rank_loss:
            print(f"estimate.py: a first choice {loss:.3f} slower than the "
                  f"measured best exceeds {args.max_rank_loss}")
            failed = True
    if args.max_median_error is not None and median > args.max_median_error:
        print(f"estimate.py: median error {median:.3f} exceeds {args.max_median_error}")
        failed = True
    if args.max_error is not None and worst > args.max_error:
        print(f"estimate.py: largest error {worst:.3f} exceeds {args.max_error}")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
