#!/usr/bin/env python3
"""Runs every shell snippet in tf's docs, as a reader would type it.

A shell snippet is a fenced block tagged `sh` in docs/**/*.md, README.md or
examples/**/README.md. Each runs with `bash -euo pipefail` in a scratch
directory that mirrors the repository root (one symbolic link per top-level
entry, `build` being the build directory), so `include/`, `examples/` and
`build/lib/tf.so` resolve as in the repository while files a snippet creates
stay in the scratch directory. The snippets of one document run in order in
one scratch directory (a later one may use what an earlier one wrote), with
the build's `bin/` first on PATH, as docs/00_quickstart.md tells the reader
to set it.

A comment on the line before the fence says how a snippet is run:

    <!-- no-run: REASON -->   never run here; listed with REASON (it needs
                              a GPU or PyTorch, sets up the machine, ...)
    <!-- needs: PROGRAM -->   run only where PROGRAM is on PATH (nvcc);
                              listed as skipped elsewhere
    <!-- fails -->            must exit non-zero (it shows an error)

Blocks after `<!-- run: COMMAND -->` are regen.py's (its --check reruns
them). An untagged block that starts like a command -- `$ `, `python3 `,
`bash `, `clang++`, `nvcc `, `cmake `, `ctest `, `lit ` -- outside such a
marker is a shell snippet without its tag, and an error: every command a doc
shows is run by one of the two. (Synopses such as `tf hir FILE... -- FLAGS`
are not commands and stay untagged.)

Exit status 0 only if every snippet that ran did what it should.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

from regen import documents

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(?P<lang>[^\n`]*)\n(?P<body>.*?)^```\n", re.M | re.S)
MARKER = re.compile(r"<!-- (?P<kind>no-run|needs|fails|run)(?::\s*(?P<arg>.*?))? -->\s*$")
TIMEOUT_S = 600
COMMAND_START = re.compile(r"^(\$ |python3 |bash |clang\+\+|nvcc |cmake |ctest |lit )")


def blocks(path):
    """(line, lang, body, marker kind, marker argument) of each fenced block."""
    text = path.read_text()
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.search(before)
        kind, arg = (marker.group("kind"), marker.group("arg")) if marker else (None, None)
        yield line, m.group("lang").strip(), m.group("body"), kind, arg


def mirror(scratch, build_dir):
    for entry in ROOT.iterdir():
        if entry.name in (".git", "build"):
            continue
        (scratch / entry.name).symlink_to(entry)
    (scratch / "build").symlink_to(build_dir)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=str(ROOT / "build"),
                        help="tf's build directory (default: build/)")
    parser.add_argument("--only", help="run the snippets of this document alone")
    args = parser.parse_args()
    build_dir = pathlib.Path(args.build_dir).resolve()
    env = dict(os.environ, LC_ALL="C",
               PATH=f"{build_dir / 'bin'}{os.pathsep}{os.environ['PATH']}")

    ran, failed, skipped, untagged = 0, [], [], []
    for doc in documents():
        rel = doc.relative_to(ROOT)
        if args.only and pathlib.Path(args.only) != rel:
            continue
        scratch = None
        for line, lang, body, kind, arg in blocks(doc):
            where = f"{rel}:{line}"
            if lang == "" and COMMAND_START.match(body) and kind != "run":
                untagged.append(where)
                continue
            if lang != "sh":
                continue
            if kind == "no-run":
                skipped.append(f"{where}: {arg}")
                continue
            if kind == "needs" and shutil.which(arg, path=env["PATH"]) is None:
                skipped.append(f"{where}: needs {arg}, not on PATH")
                continue
            if scratch is None:
                scratch = pathlib.Path(tempfile.mkdtemp(prefix="tf-snippets-"))
                mirror(scratch, build_dir)
            start = time.monotonic()
            try:
                proc = subprocess.run(["bash", "-euo", "pipefail", "-c", body],
                                      cwd=scratch, env=env, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      timeout=TIMEOUT_S)
                status, output = proc.returncode, proc.stdout
            except subprocess.TimeoutExpired as e:
                status, output = None, f"timed out after {TIMEOUT_S} s\n{e.stdout or ''}"
            seconds = time.monotonic() - start
            ran += 1
            expected = "fails" if kind == "fails" else "succeeds"
            good = status is not None and ((status != 0) == (kind == "fails"))
            if good:
                print(f"ok   {where} ({seconds:.1f} s, exit {status}, {expected} as documented)")
            else:
                failed.append(where)
                print(f"FAIL {where} ({seconds:.1f} s, exit {status}; documented: {expected})")
                print("     " + "\n     ".join(output.rstrip("\n").splitlines()[-30:]))
        if scratch is not None:
            shutil.rmtree(scratch)

    print(f"\n{ran} snippets run, {len(failed)} failed, {len(skipped)} not run here:")
    for s in skipped:
        print(f"  {s}")
    for u in untagged:
        print(f"error: {u}: a command in a block that nothing runs; tag the "
              "block ```sh or give it a <!-- run: ... --> marker")
    return 1 if failed or untagged else 0


if __name__ == "__main__":
    sys.exit(main())
