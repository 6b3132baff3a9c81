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
either exceeds its bound (given), 2 when a query fails. Run from the
repository root."""
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("--tf", default="build/bin/tf")
    parser.add_argument("--max-error", type=float)
    parser.add_argument("--max-median-error", type=float)
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
    with tempfile.TemporaryDirectory() as scratch:
        for r in rows:
            m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
            schedule = r.get("schedule") or DEFAULT_SCHEDULE[r["layout"]]
            e = estimate(args.tf, source_of(schedule, scratch), m, n, k)
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
    failed = False
    if args.max_median_error is not None and median > args.max_median_error:
        print(f"estimate.py: median error {median:.3f} exceeds {args.max_median_error}")
        failed = True
    if args.max_error is not None and worst > args.max_error:
        print(f"estimate.py: largest error {worst:.3f} exceeds {args.max_error}")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
