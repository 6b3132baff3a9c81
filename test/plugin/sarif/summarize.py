#!/usr/bin/env python3
"""Prints a SARIF log (what -fplugin-arg-tf-sarif=FILE writes) one line per
result, note and fix-it, for FileCheck:

    result RULE LEVEL URI:LINE:COL-LINE:COL MESSAGE
      note URI:LINE:COL-LINE:COL MESSAGE
      fix URI:LINE:COL-LINE:COL "TEXT"
      arguments NAME="VALUE" ...
    rule RULE [NAME] LEVEL [(disabled)]: TEMPLATE

Used by the tests in this folder; usage: summarize.py FILE.sarif
"""

import json
import sys


def span(physical):
    r = physical["region"]
    return (f"{physical['artifactLocation']['uri']}:{r['startLine']}:"
            f"{r['startColumn']}-{r['endLine']}:{r['endColumn']}")


def main(path):
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    (run,) = log["runs"]
    for result in run["results"]:
        where = " ".join(span(l["physicalLocation"])
                         for l in result["locations"])
        print(f"result {result['ruleId']} {result['level']} {where} "
              f"{result['message']['text']}")
        for note in result.get("relatedLocations", []):
            where = (span(note["physicalLocation"])
                     if "physicalLocation" in note else "-")
            print(f"  note {where} {note['message']['text']}")
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                uri = change["artifactLocation"]["uri"]
                for r in change["replacements"]:
                    text = r.get("insertedContent", {}).get("text", "")
                    print(f"  fix {span({'artifactLocation': {'uri': uri}, 'region': r['deletedRegion']})} "
                          f"{json.dumps(text)}")
        arguments = result.get("properties", {}).get("arguments", {})
        if arguments:
            print("  arguments " + " ".join(
                f"{name}={json.dumps(value)}"
                for name, value in arguments.items()))
    for rule in run["tool"]["driver"].get("rules", []):
        name = f" {rule['name']}" if "name" in rule else ""
        config = rule["defaultConfiguration"]
        enabled = "" if config.get("enabled", True) else " (disabled)"
        print(f"rule {rule['id']}{name} {config['level']}{enabled}: "
              f"{rule['shortDescription']['text']}")


if __name__ == "__main__":
    main(sys.argv[1])
