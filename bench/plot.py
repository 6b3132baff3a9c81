#!/usr/bin/env python3
"""bench/plot.py CSV... -o PNG: the benchmark's CSVs (bench/gemm_bench.cu) as
one bar chart per layout: TFLOP/s per shape, sustained (launches back to
back), tf against cuBLASLt's heuristic first choice and the best of its
first eight; tf's paused rate as a marker; the 989 TFLOP/s dense peak as a
line. Needs matplotlib."""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PEAK = 989.0
SIDES = [("tf_tflops", "tf (generated)", "#1f77b4"),
         ("lt_first_tflops", "cuBLASLt, heuristic's first", "#ff7f0e"),
         ("lt_best8_tflops", "cuBLASLt, best of first 8", "#bbbbbb")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    layouts = {}
    for path in args.csv:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                layouts.setdefault(row["layout"], []).append(row)
    fig, axes = plt.subplots(len(layouts), 1, figsize=(15, 5.2 * len(layouts)),
                             squeeze=False)
    for ax, (layout, rows) in zip(axes[:, 0], layouts.items()):
        sustained = [r for r in rows if r["mode"] == "sustained"]
        paused = {(r["M"], r["N"], r["K"]): float(r["tf_tflops"])
                  for r in rows if r["mode"] == "paused"}
        x = range(len(sustained))
        width = 0.27
        for i, (key, label, color) in enumerate(SIDES):
            ax.bar([p + (i - 1) * width for p in x],
                   [float(r[key]) for r in sustained], width, label=label,
                   color=color)
        ax.plot([p - width for p in x],
                [paused.get((r["M"], r["N"], r["K"]), float("nan"))
                 for r in sustained],
                "k_", markersize=9, markeredgewidth=2,
                label="tf, paused (each launch alone)")
        ax.axhline(PEAK, color="red", linewidth=0.8, linestyle="--")
        ax.text(len(sustained) - 0.5, PEAK, "dense bf16 peak 989",
                color="red", ha="right", va="bottom", fontsize=8)
        ax.set_xticks(list(x))
        ax.set_xticklabels([f'{r["M"]}x{r["N"]}x{r["K"]}' for r in sustained],
                           rotation=40, ha="right", fontsize=8)
        ax.set_ylabel("TFLOP/s (sustained)")
        ax.set_ylim(0, 1050)
        ax.set_title(f"{layout}: bf16 GEMM M x N x K, launches back to back, "
                     "L2 flushed by rotating inputs" +
                     (f" - {args.title}" if args.title else ""), fontsize=10)
        ax.legend(fontsize=8, loc="upper left", ncol=4)
        ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
