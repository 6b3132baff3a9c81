"""Runs `tf finalize` on mutants of a kernel; fails if any crashes.

Usage: mutants.py TF INCLUDE FILE COUNT SEED

The mutants are those of test/plugin/robustness/mutate.py (a line of the
kernel deleted or duplicated, a number replaced, a token dropped). Whatever a
mutant says, `tf finalize` must print its lowered form or refuse it with
errors -- exit 0 or 1; a signal or a "PLEASE submit" stack dump is a failure.
Run by mutants.test; the SEED argument makes the mutants reproducible.
"""
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "plugin", "robustness"))
from mutate import mutate  # noqa: E402


def main(tf, include, path, count, seed):
    lines = open(path).read().split("\n")
    rng = random.Random(int(seed))
    crashed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(int(count)):
            mutant, what = mutate(lines, rng)
            src = os.path.join(tmp, f"mutant{n}.cpp")
            open(src, "w").write("\n".join(mutant))
            proc = subprocess.run(
                [tf, "finalize", src, "--", "-std=c++20", "-I", include,
                 "-I", os.path.dirname(os.path.abspath(path))],
                capture_output=True, text=True, timeout=120)
            if proc.returncode not in (0, 1) or "PLEASE submit" in proc.stderr:
                crashed += 1
                print(f"mutant {n} ({what}) crashed with {proc.returncode}:")
                print(proc.stderr[-3000:])
    print(f"{int(count) - crashed} of {count} mutants were lowered or refused "
          "cleanly")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
