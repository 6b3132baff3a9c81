"""Fails when a diagnostic id of plugin/Diagnostics.def has no test or no
entry in the diagnostics reference.

Usage: check_diagnostics_covered.py Diagnostics.def test/plugin/diagnostics docs/diagnostics.md
Run by diagnostics_covered.test. The reference must have a section
"### `<id>`" for every id (and none for ids that do not exist).
"""
import os
import re
import sys


def main(table, tests, reference):
    entries = re.findall(r"^TF_DIAG\((\w+),\s*(Error|Warning|Note)\b",
                         open(table).read(), re.M)
    if not entries:
        print(f"error: no TF_DIAG entries in {table}")
        return 1
    kind = {"Error": "error", "Warning": "warning", "Note": "note"}
    failed = 0
    for ident, cls in entries:
        path = os.path.join(tests, ident + ".cpp")
        if not os.path.exists(path):
            print(f"error: diagnostic '{ident}' has no test {path}")
            failed += 1
            continue
        text = open(path).read()
        k = kind[cls]
        if not re.search(rf"expected-{k}\b|-{k}(-re)?(@\S+)? {{{{|CHECK.*\b{k}:", text):
            print(f"error: {path} does not expect a {k} (the class of '{ident}')")
            failed += 1
    known = {ident for ident, _ in entries}
    for name in sorted(os.listdir(tests)):
        stem, ext = os.path.splitext(name)
        if ext == ".cpp" and stem not in known:
            print(f"error: {name} tests no diagnostic of {table}")
            failed += 1
    documented = set(re.findall(r"^### `(\w+)`", open(reference).read(), re.M))
    for ident in sorted(known - documented):
        print(f"error: diagnostic '{ident}' has no section in {reference}")
        failed += 1
    for ident in sorted(documented - known):
        print(f"error: {reference} documents '{ident}', which is not in {table}")
        failed += 1
    print(f"{len(entries) - failed} of {len(entries)} diagnostics covered")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
