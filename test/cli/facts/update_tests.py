#!/usr/bin/env python3
"""Writes test/cli/facts/<atom>.test from what `tf facts` prints now.

Each test pins an atom's whole text listing (every line, --match-full-lines
--strict-whitespace) and the key fields of its JSON. Run it after changing a
contract, then read the diff: the test is only as good as that review.

    python3 test/cli/facts/update_tests.py [--bindir build/bin] [ATOM...]

Without ATOM it rewrites the test of every atom `tf facts --json` lists.
"""
import argparse
import json
import pathlib
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent

# The target each atom's facts are shown for: its own kind of machine.
TARGETS = [
    ("nv.sm90.", "nvidia.h200_sxm"),
    ("nv.sm89.", "nvidia.h200_sxm"),
    ("nv.sm80.", "nvidia.a100_sxm"),
    ("intel.amx.", "intel.xeon_amx"),
    ("generic.", None),
]


def target_of(atom):
    for prefix, target in TARGETS:
        if atom.startswith(prefix):
            return target
    return None


def tf(bindir, *args):
    return subprocess.run([str(pathlib.Path(bindir) / "tf"), "facts", *args],
                          check=True, text=True, stdout=subprocess.PIPE,
                          env={"PATH": "/usr/bin:/bin"}).stdout


def file_name(atom):
    return atom.lower().replace(".", "-") + ".test"


def check_lines(prefix, lines):
    out = []
    for i, line in enumerate(lines):
        tag = prefix if i == 0 else prefix + "-NEXT"
        out.append(f"{tag}:{line}" if line else f"{prefix}-EMPTY:")
    return out


def json_checks(obj):
    """The key fields of the JSON, in the order they are printed."""
    c = ["JSON:" + f'  "atom": "{obj["atom"]}",',
         "JSON-NEXT:" + f'  "kind": "{obj["kind"]}",']
    cap = obj["capability"]
    c.append('JSON:      "capability": {')
    c.append("JSON-NEXT:   " + '"name": ' + json.dumps(cap["name"]) + ",")
    c.append("JSON-NEXT:   " + '"available": ' + json.dumps(cap["available"]) + ",")
    c.append("JSON-NEXT:   " + '"from": ' + json.dumps(cap["from"]))
    mesh = obj["execution_mesh"]
    c.append('JSON:      "execution_mesh": {')
    c.append("JSON-NEXT:   " + '"mesh": ' + json.dumps(mesh["mesh"]) + ",")
    for p in mesh["predicates"]:
        c.append("JSON:        " + json.dumps(p))
    c.append('JSON:      "atom_shape": ' + json.dumps(obj["atom_shape"]) + ",")
    c.append('JSON-NEXT: "parameters": [' + ("]," if not obj["parameters"] else ""))
    for p in obj["parameters"]:
        c.append('JSON:        "name": ' + json.dumps(p["name"]) + ",")
        c.append('JSON-NEXT:   "kind": ' + json.dumps(p["kind"]) + ",")
        for pred in p["predicates"]:
            c.append("JSON:          " + json.dumps(pred))
        for case in p["cases"]:
            c.append('JSON:          "text": ' + json.dumps(case["text"]))
    c.append('JSON:      "operands": [' + ("]," if not obj["operands"] else ""))
    for o in obj["operands"]:
        c.append('JSON:        "name": ' + json.dumps(o["name"]) + ",")
        c.append('JSON:        "shape": ' + json.dumps(o["shape"]) + ",")
        c.append('JSON:          "text": ' + json.dumps(o["dtype"]["text"]))
        c.append('JSON:        "storage": ' + json.dumps(o["storage"]) + ",")
        for a in o["arrangements"]:
            c.append('JSON:            "text": ' + json.dumps(a["text"]) + ",")
    c.append('JSON:      "limits": [' + ("]" if not obj["limits"] else ""))
    for l in obj["limits"]:
        c.append('JSON:        "predicate": ' + json.dumps(l["predicate"]) + ",")
    return c


def write_test(bindir, atom):
    target = target_of(atom)
    args = [atom] + (["--target", target] if target else [])
    text = tf(bindir, *args).rstrip("\n").split("\n")
    obj = json.loads(tf(bindir, *args, "--json"))
    shown = " ".join(args)
    lines = [
        f"# `tf facts {shown}`:",
        "# the whole listing, pinned line by line, and the key fields of the JSON.",
        "# Written by update_tests.py from the tool's output and reviewed; a change",
        "# to the contract changes this test.",
        f"RUN: env -u TF_TARGETS_DIR %tf facts {shown} | FileCheck %s --match-full-lines --strict-whitespace",
        f"RUN: env -u TF_TARGETS_DIR %tf facts {shown} --json | FileCheck %s --check-prefix=JSON",
        "",
    ]
    lines += check_lines("CHECK", text)
    lines.append("CHECK-NOT:{{.}}")
    lines.append("")
    lines += json_checks(obj)
    (HERE / file_name(atom)).write_text("\n".join(lines) + "\n")
    print("wrote", (HERE / file_name(atom)).relative_to(ROOT))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bindir", default=str(ROOT / "build" / "bin"))
    parser.add_argument("atoms", nargs="*")
    args = parser.parse_args()
    atoms = args.atoms or [a["atom"] for a in
                           json.loads(tf(args.bindir, "--json"))["atoms"]]
    for atom in atoms:
        write_test(args.bindir, atom)


if __name__ == "__main__":
    main()
