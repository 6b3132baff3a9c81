#!/usr/bin/env python3
"""test/gpu/unchecked_copy.py IN OUT - the CUDA backend's IN with the checked
copy of every register program written twice replaced by __trap(): what is
left is the unchecked copy, the path every tile inside its tensor takes.
ptxas counts both copies' spills together; compiled alone, the unchecked
copy must spill nothing (test/plugin/emit/rows.test). The copies are the
branches of the `if` under the comment `// every tile below inside its
tensor ...`; the checked one is its `} else {` branch at the same indent.
"""
import sys

MARK = "// every tile below inside its tensor"


def unchecked_only(text: str) -> tuple[str, int]:
    lines = text.split("\n")
    out: list[str] = []
    copies = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if MARK not in line:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        while lines[i] != indent + "} else {":
            out.append(lines[i])
            i += 1
        out.append(lines[i])
        i += 1
        while lines[i] != indent + "}":
            i += 1
        out.append(indent + "  __trap(); // the checked copy, left out")
        copies += 1
    return "\n".join(out), copies


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        text, copies = unchecked_only(f.read())
    if not copies:
        print(f"{sys.argv[1]}: no program written twice", file=sys.stderr)
        return 1
    with open(sys.argv[2], "w") as f:
        f.write(text)
    print(f"{sys.argv[1]}: {copies} checked copies left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
