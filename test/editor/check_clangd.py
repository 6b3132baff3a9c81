"""What an editor shows for tf code, checked over LSP with the real clangd.

With tf-clangd (the plugin preloaded):
  - the GEMM examples (examples/gemm/*.cpp): no diagnostic;
  - examples/gemm/optimal.cpp with a wrong tf::Repeat: the tf error on the
    written Repeat with its code, its notes as related information, and a
    quick fix whose edit gives back the correct file, which clangd and
    clang++ with the plugin then accept;
  - the same GEMM with five stages: the capacity warning with its code, an
    error by the -fplugin-arg-tf-Werror= of its compile command.
With the stock clangd (no plugin, -Wno-unknown-attributes): the correct GEMM
has no diagnostic and the wrong Repeat is the header's static_assert.

The compile_commands.json is written for the test, as a project's build
writes one. --transcript FILE saves the LSP messages of the wrong-Repeat
session (docs/editors.md shows them).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import time

from lsp import Clangd, apply_edits


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def span_of(text, needle):
    """The LSP range of the only occurrence of \\p needle in \\p text."""
    expect(text.count(needle) == 1, "%r occurs once" % needle)
    offset = text.index(needle)
    line = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return {"start": {"line": line, "character": column},
            "end": {"line": line, "character": column + len(needle)}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tf-clangd", required=True)
    ap.add_argument("--clangd", required=True, help="clangd without tf")
    ap.add_argument("--clangxx", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--src", required=True, help="tf's source tree")
    ap.add_argument("--work", required=True, help="a scratch directory")
    ap.add_argument("--transcript")
    args = ap.parse_args()
    started = time.time()

    src = pathlib.Path(args.src).resolve()
    gemm = src / "examples" / "gemm"
    work = pathlib.Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)

    def broken(what):
        path = work / (what + ".cpp")
        path.write_text(subprocess.run(
            ["bash", str(gemm / "break.sh"), what], check=True,
            capture_output=True, text=True).stdout)
        return path

    correct = sorted(p for p in gemm.glob("*.cpp"))
    repeat, stages = broken("repeat"), broken("stages")
    flags = ["-std=c++20", "-I", str(src / "include"), "-I", str(gemm)]
    # As a build with the plugin writes it: clangd drops -fplugin=, and
    # tf-clangd brings the plugin instead.
    plugin_flags = flags + ["-fplugin=" + args.plugin]
    # A plugin argument in the compile command applies in clangd too.
    werror = ["-fplugin-arg-tf-Werror=capacity-smem"]
    (work / "compile_commands.json").write_text(json.dumps([
        {"directory": str(work), "file": str(path),
         "arguments": [args.clangxx] + plugin_flags +
                      (werror if path == stages else []) + ["-c", str(path)]}
        for path in correct + [repeat, stages]], indent=1))

    transcript = []
    with Clangd([args.tf_clangd], work, log=transcript) as server:
        for path in correct + [repeat, stages]:
            server.open(path)
        for path in correct:
            diags = server.diagnostics(path)
            expect(diags == [], "%s: no diagnostic, got %s" %
                   (path.name, json.dumps(diags, indent=1)))

        text = repeat.read_text()
        diags = server.diagnostics(repeat)
        expect(len(diags) == 1, "repeat: one diagnostic, got %s" %
               json.dumps(diags, indent=1))
        error = diags[0]
        expect(error["severity"] == 1, "repeat: an error")
        expect(error["message"].startswith(
            "Written Repeat<2, 1, 2> disagrees with the derived Repeat<2, 1, 4>")
            and "[tf:repeat-mismatch]" in error["message"],
            "repeat: the tf message with its code, got %r" % error["message"])
        expect(error["range"] == span_of(text, "tf::Repeat<2, 1, 2>"),
               "repeat: the range of the written Repeat, got %s" %
               error["range"])
        notes = [n["message"] for n in error.get("relatedInformation", [])]
        expect(len(notes) == 2 and
               notes[0].startswith("Contract nv.sm90.Wgmma, repeat: written "
                                   "(2,1,2), derived (2,1,4)") and
               notes[1].startswith("Derived Repeat<2, 1, 4> = tile "),
               "repeat: the two notes as related information, got %s" % notes)
        actions = server.code_actions(repeat, error)
        expect(len(actions) == 1 and actions[0].get("kind") == "quickfix",
               "repeat: one quick fix, got %s" % json.dumps(actions, indent=1))
        edits = actions[0]["edit"]["changes"][repeat.as_uri()]
        fixed = apply_edits(text, edits)
        expect(fixed == (gemm / "optimal.cpp").read_text(),
               "repeat: the quick fix gives back optimal.cpp")
        server.change(repeat, fixed)
        diags = server.diagnostics(repeat)
        expect(diags == [], "repeat, fixed: no diagnostic, got %s" %
               json.dumps(diags, indent=1))
        repeat.write_text(fixed)
        compiled = subprocess.run(
            [args.clangxx] + plugin_flags + ["-fsyntax-only", str(repeat)],
            capture_output=True, text=True)
        expect(compiled.returncode == 0 and compiled.stderr == "",
               "repeat, fixed: clang++ with the plugin accepts it, got:\n" +
               compiled.stderr)

        diags = server.diagnostics(stages)
        expect(len(diags) == 1 and diags[0]["severity"] == 1 and
               "[-Werror,tf:capacity-smem]" in diags[0]["message"],
               "stages: the capacity warning, an error by the compile "
               "command's %s, got %s" % (werror[0], json.dumps(diags, indent=1)))

    if args.transcript:
        uri = repeat.as_uri()
        shown = [(who, m) for who, m in transcript
                 if json.dumps(m).find(uri) >= 0 or
                 m.get("method") in ("initialize",)]
        pathlib.Path(args.transcript).write_text(json.dumps(
            [{"from": who, "message": m} for who, m in shown], indent=1))

    # Without the plugin: the header's own checks, no attribute noise.
    stock = work / "stock"
    stock.mkdir(exist_ok=True)
    bad = stock / "repeat.cpp"
    bad.write_text(text)
    stock_flags = flags + ["-Wno-unknown-attributes"]
    (stock / "compile_commands.json").write_text(json.dumps([
        {"directory": str(stock), "file": str(path),
         "arguments": [args.clangxx] + stock_flags + ["-c", str(path)]}
        for path in (gemm / "optimal.cpp", bad)], indent=1))
    with Clangd([args.clangd], stock) as server:
        server.open(gemm / "optimal.cpp")
        server.open(bad)
        diags = server.diagnostics(gemm / "optimal.cpp")
        expect(diags == [], "stock clangd, optimal.cpp: no diagnostic, got %s"
               % json.dumps(diags, indent=1))
        diags = server.diagnostics(bad)
        expect(any(d["severity"] == 1 and "static assertion failed" in
                   d["message"] and "Repeat<2,1,2> disagrees with the tile"
                   in d["message"] for d in diags),
               "stock clangd, repeat: the header's static_assert, got %s" %
               json.dumps(diags, indent=1))

    print("clangd: %d correct examples clean, the tf error with notes and "
          "quick fix, the capacity warning made an error by a plugin "
          "argument, the header check without the "
          "plugin (%.0f s)" % (len(correct), time.time() - started))


if __name__ == "__main__":
    main()
