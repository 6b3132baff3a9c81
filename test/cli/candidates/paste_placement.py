#!/usr/bin/env python3
"""Pastes the layouts `tf candidates --json` offers into a source file.

  paste_placement.py JSON SOURCE LINE CONTRACT TEXT=OPERAND...

Reads the document JSON, takes the placement of CONTRACT at the site on
source line LINE, and prints SOURCE with each TEXT (a layout string as
written, quotes included, first occurrence) replaced by the quoted layout
the placement gives OPERAND -- what a user does with the offer. Fails when
the site, the candidate, its placement or a TEXT is missing.
"""
import json
import sys


def main(argv):
    if len(argv) < 6:
        sys.exit(__doc__)
    doc_path, source_path, line, contract = argv[1], argv[2], int(argv[3]), argv[4]
    with open(doc_path) as f:
        doc = json.load(f)
    placements = [c["placement"]
                  for file in doc["files"] for kernel in file["kernels"]
                  for site in kernel["sites"] if site["position"]["line"] == line
                  for c in site["candidates"]
                  if c["contract"] == contract and c["placement"]]
    if not placements:
        sys.exit(f"no placement of {contract} at line {line}")
    layouts = {l["operand"]: l["layout"] for l in placements[0]["layouts"]}
    with open(source_path) as f:
        source = f.read()
    for pair in argv[5:]:
        text, operand = pair.rsplit("=", 1)
        if operand not in layouts:
            sys.exit(f"the placement has no layout for operand {operand}")
        if text not in source:
            sys.exit(f"{text} is not in {source_path}")
        source = source.replace(text, '"' + layouts[operand] + '"', 1)
    sys.stdout.write(source)


if __name__ == "__main__":
    main(sys.argv)
