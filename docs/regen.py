#!/usr/bin/env python3
"""Regenerates the command output shown in tf's docs.

A doc shows a command's real output by placing a marker before a fenced block:

    <!-- run: tf layout coalesce '(2,4):(4,1)' -->
    ```
    (anything; replaced)
    ```

The marked docs are docs/**/*.md, README.md and examples/**/README.md.
`python3 docs/regen.py` reruns every marked command from the repository root
with build/bin first on PATH and rewrites the block as `$ command` followed by
what it printed (stdout and stderr). `--check` changes nothing and fails when
a block is out of date, so a test keeps the docs true.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- run: (?P<cmd>.+?) -->\n```[^\n]*\n(?P<body>.*?)^```\n",
                    re.M | re.S)


def run(cmd, bindir):
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}",
               LC_ALL="C")
    proc = subprocess.run(cmd, shell=True, cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=120)
    return f"$ {cmd}\n{proc.stdout}"


def documents():
    """Every document with commands in it (regen.py's and run_snippets.py's)."""
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield ROOT / "README.md"
    yield from sorted((ROOT / "examples").rglob("README.md"))


def regenerate(text, bindir):
    def replace(m):
        fence_open = m.group(0).split("\n", 2)[1]
        out = run(m.group("cmd"), bindir)
        if not out.endswith("\n"):
            out += "\n"
        return f"<!-- run: {m.group('cmd')} -->\n{fence_open}\n{out}```\n"
    return MARKER.sub(replace, text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="fail if a doc is out of date; change nothing")
    parser.add_argument("--bindir", default=str(ROOT / "build" / "bin"),
                        help="where the tf tool is (default: build/bin)")
    args = parser.parse_args()
    stale = []
    for path in documents():
        text = path.read_text()
        new = regenerate(text, args.bindir)
        if new == text:
            continue
        if args.check:
            stale.append(path.relative_to(ROOT))
        else:
            # Whole or not at all: a temporary of this run's own, renamed.
            with tempfile.NamedTemporaryFile(
                    "w", dir=path.parent, prefix=path.name + ".tmp-",
                    delete=False) as tmp:
                tmp.write(new)
            pathlib.Path(tmp.name).replace(path)
            print(f"regenerated {path.relative_to(ROOT)}")
    if stale:
        print("out of date (run python3 docs/regen.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
