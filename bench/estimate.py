#!/usr/bin/env python3
"""bench/estimate.py CSV... [--tf TF] [--max-error E] [--max-median-error E]:
tf analyze's estimate (docs/analyze.md, "The estimate") beside the benchmark's
measurement, per shape: for every sustained row of the CSVs bench/run.sh
writes (gemm_nn.csv, gemm_nt.csv), `tf analyze --json` on the example the row
timed (examples/gemm/optimal.cpp for NN, nt.cpp for NT) at the row's M, N, K,
and the ratio of the predicted to the measured TFLOP/s. Prints a Markdown
table and the median and largest |ratio - 1|; the exit status is 1 when
either exceeds its bound (given), 2 when a query fails. Run from the
repository root."""
import argparse
import csv
import json
import statistics
import subprocess
import sys

EXAMPLES = {"NN": "examples/gemm/optimal.cpp", "NT": "examples/gemm/nt.cpp"}


def estimate(tf, layout, m, n, k):
    """The estimate object of the example's kernel at M, N, K."""
    shape = f"a={m}x{k},b={k}x{n},out={m}x{n}"
    out = subprocess.run(
        [tf, "analyze", EXAMPLES[layout], "--json", "--shape", shape, "--",
         "-std=c++20", "-Iinclude", "-Iexamples/gemm"],
        capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"estimate.py: tf analyze failed at {layout} {shape}:\n{out.stderr}")
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
    print("| M × N × K | layout | busy SMs | tiles on the busiest | bound | "
          "estimate TFLOP/s | measured | estimate / measured |")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: |")
    errors = []
    for r in rows:
        m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
        e = estimate(args.tf, r["layout"], m, n, k)
        measured = float(r["tf_tflops"])
        ratio = e["tflop_per_s"] / measured
        errors.append(abs(ratio - 1))
        print(f"| {m} × {n} × {k} | {r['layout']} | {e['busy_units']} | "
              f"{e['busiest_tiles']} | {e['bound']} | {e['tflop_per_s']:.0f} | "
              f"{measured:.0f} | {ratio:.2f} |")
    median, worst = statistics.median(errors), max(errors)
    print(f"\n{len(errors)} shapes: median |estimate / measured - 1| "
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
