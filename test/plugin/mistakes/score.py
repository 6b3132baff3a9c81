"""Scores the plugin on a corpus of realistic mistakes.

Usage: score.py PLUGIN INCLUDE REPO MISTAKE... -- CLANG [CLANG ARGS...]

Each MISTAKE file makes one edit to a correct example of the repository and
says what the plugin must answer:

    # One line: what the user did wrong.
    base: examples/gemm/optimal.cpp
    replace: <text of the example, found exactly once>
    with: <the mistaken text>
    expect: <tf diagnostic code (loop-coverage), or 'warning:CODE'>

The edited file is compiled with the plugin (clang -fsyntax-only). The
mistake is caught when the compiler reports exactly one diagnostic of the
expected kind (one error; or, for 'warning:CODE', no error and exactly that
warning) at the line of the edit, in the user's file, with the expected
code -- no miss, no wrong line, no cascade, no crash. A line `known-gap:
REASON` marks a mistake tf does not catch yet: it must still not crash, and
the script fails when it starts passing, so that the line is removed.
Prints one line per mistake and a summary; exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): "
                  r"(?P<kind>error|warning|fatal error): (?P<text>.*)$")
# A warning's code may be followed by Clang's group, [-Wuser-defined-warnings].
CODE = re.compile(r"\[(?:-Werror,)?tf:(?P<code>[a-z0-9-]+)\](?: \[-W[^]]*\])?$")
CRASH = ("PLEASE submit a bug report", "Stack dump:", "Assertion", "UNREACHABLE")


def read_mistake(path):
    fields = {}
    for line in open(path):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise SystemExit(f"{path}: not 'key: value': {line!r}")
        fields[key.strip()] = value.strip()
    for key in ("base", "replace", "with", "expect"):
        if key not in fields:
            raise SystemExit(f"{path}: missing '{key}:'")
    return fields


def apply(mistake, repo, path):
    source = open(os.path.join(repo, mistake["base"])).read()
    if source.count(mistake["replace"]) != 1:
        raise SystemExit(f"{path}: 'replace' text occurs "
                         f"{source.count(mistake['replace'])} times in "
                         f"{mistake['base']}, not once")
    before = source.index(mistake["replace"])
    line = source.count("\n", 0, before) + 1
    return source.replace(mistake["replace"], mistake["with"]), line


def judge(output, returncode, user_file, line, expect):
    if returncode not in (0, 1) or any(c in output for c in CRASH):
        return f"crash (exit status {returncode}):\n" + output[-3000:]
    diags = [m.groupdict() for m in map(DIAG.match, output.splitlines()) if m]
    errors = [d for d in diags if d["kind"] != "warning"]
    want_kind, _, want_code = expect.rpartition(":")
    want_kind = want_kind or "error"
    found = errors if want_kind == "error" else (
        errors or [d for d in diags if d["kind"] == "warning"])
    if not found:
        return "miss (accepted silently)"
    if len(found) > 1:
        return f"cascade ({len(found)} {'errors' if errors else 'warnings'})"
    d = found[0]
    code = CODE.search(d["text"])
    where = f"{os.path.basename(d['file'])}:{d['line']}"
    if d["kind"] != want_kind:
        return f"wrong kind ({d['kind']} at {where})"
    if os.path.abspath(d["file"]) != user_file or int(d["line"]) != line:
        return f"wrong line ({where}, expected line {line})"
    if not code or code.group("code") != want_code:
        return f"wrong code ({code.group('code') if code else 'none'})"
    return "caught"


def main(plugin, include, repo, *rest):
    if "--" not in rest:
        raise SystemExit(__doc__)
    split = rest.index("--")
    mistakes, clang = rest[:split], list(rest[split + 1:])
    failures = 0
    caught = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in mistakes:
            m = read_mistake(path)
            text, line = apply(m, repo, path)
            name = os.path.splitext(os.path.basename(path))[0]
            user_file = os.path.join(tmp, name + ".cpp")
            open(user_file, "w").write(text)
            base_dir = os.path.dirname(os.path.join(repo, m["base"]))
            proc = subprocess.run(
                [*clang, "-std=c++20", "-fsyntax-only", "-fno-color-diagnostics",
                 "-fplugin=" + plugin, "-I", include, "-I", base_dir, user_file],
                capture_output=True, text=True, timeout=300)
            verdict = judge(proc.stdout + proc.stderr, proc.returncode,
                            user_file, line, m["expect"])
            gap = m.get("known-gap")
            if verdict == "caught":
                caught += 1
                ok = gap is None
                shown = "caught" if ok else "caught, but marked known-gap: remove the mark"
            else:
                ok = gap is not None and verdict != "crash"
                shown = f"{verdict}" + (f" [known gap: {gap}]" if gap else "")
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {shown}")
    print(f"{caught} of {len(mistakes)} mistakes caught at their line; "
          f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
