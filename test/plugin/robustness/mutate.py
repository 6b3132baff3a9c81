"""Compiles mutants of a kernel through the plugin; fails if any crashes.

Usage: mutate.py PLUGIN INCLUDE FILE COUNT SEED CLANG [CLANG ARGS...]

A mutant changes one thing inside the file's [[tf::kernel]] function (the
lines from the attribute to the first line that is just "}"): deletes a line,
replaces an integer literal, drops a token, or duplicates a line. Whatever the
mutant says, clang with the plugin must exit with 0 or 1 -- a signal, an
assertion or a "PLEASE submit a bug report" stack dump is a failure. Run by
mutants.test; the SEED argument makes the mutants reproducible.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+|::|->|[^\sA-Za-z_0-9]")


def kernel_lines(lines):
    start = next(i for i, l in enumerate(lines) if "tf::kernel" in l)
    end = next(i for i in range(start, len(lines)) if lines[i].rstrip() == "}")
    return start, end


def mutate(lines, rng):
    start, end = kernel_lines(lines)
    out = list(lines)
    i = rng.randrange(start, end + 1)
    kind = rng.choice(["delete", "number", "token", "duplicate"])
    if kind == "delete":
        del out[i]
    elif kind == "duplicate":
        out.insert(i, out[i])
    else:
        tokens = [m for m in TOKEN.finditer(out[i])
                  if kind == "token" or m.group().isdigit()]
        if not tokens:
            del out[i]
            return out, f"line {i + 1}: delete (no {kind})"
        m = rng.choice(tokens)
        new = str(rng.choice([0, 1, 3, 7, 100, 260, 1 << 20])) if kind == "number" else ""
        out[i] = out[i][:m.start()] + new + out[i][m.end():]
    return out, f"line {i + 1}: {kind}"


def main(plugin, include, path, count, seed, *clang):
    lines = open(path).read().split("\n")
    rng = random.Random(int(seed))
    crashed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(int(count)):
            mutant, what = mutate(lines, rng)
            src = os.path.join(tmp, f"mutant{n}.cpp")
            open(src, "w").write("\n".join(mutant))
            proc = subprocess.run(
                [*clang, "-std=c++20", "-fsyntax-only", "-I", include,
                 "-I", os.path.dirname(os.path.abspath(path)),
                 f"-fplugin={plugin}", src],
                capture_output=True, text=True, timeout=120)
            bad = proc.returncode not in (0, 1) or "PLEASE submit" in proc.stderr
            if bad:
                crashed += 1
                print(f"mutant {n} ({what}) crashed with {proc.returncode}:")
                print(proc.stderr[-3000:])
    print(f"{int(count) - crashed} of {count} mutants compiled or were refused cleanly")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
