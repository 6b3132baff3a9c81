#!/usr/bin/env python3
"""Validates JSON documents against one of tf's schemas (docs/schemas/).

    validate_json.py SCHEMA FILE [FILE...]

Each FILE holds one JSON document, or several one after another (what
`tf hir --json` prints for several source files); `-` reads stdin. Every
error is printed as `FILE: $.json.path: message` and the exit status is 1
when a document is not valid JSON or breaks the schema, 2 on a usage error.
The schema's own `$schema` picks the draft (tf's schemas use 2020-12) and the
schema itself is checked first. A `$ref` to another schema of the same
folder ("diagnostics.schema.json#/$defs/diagnostic") is resolved from that
file, offline. Needs python3-jsonschema (.ci/setup.sh). Used by
test/cli/json/ and test/plugin/sarif/.
"""

import json
import os
import sys

import jsonschema


def documents(text):
    """The JSON documents in text, one after another (whitespace between)."""
    decoder = json.JSONDecoder()
    at = 0
    out = []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return out
        document, at = decoder.raw_decode(text, at)
        out.append(document)


def with_local_references(schema, directory):
    """schema with every $ref to another schema of directory made local: the
    other schema's $defs are copied in as "STEM.NAME" (its own references
    rewritten alike) and the reference points there, so that any jsonschema
    version validates it without fetching anything."""
    imported = {}

    def import_schema(file):
        stem = file.split(".", 1)[0]
        if not any(k.startswith(stem + ".") for k in imported):
            with open(os.path.join(directory, file), encoding="utf-8") as f:
                other = json.load(f)
            for name, definition in other.get("$defs", {}).items():
                imported[f"{stem}.{name}"] = None
                imported[f"{stem}.{name}"] = rewrite(definition, stem)
        return stem

    def rewrite(node, origin):
        if isinstance(node, list):
            return [rewrite(item, origin) for item in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                file, _, pointer = value.partition("#")
                name = pointer[len("/$defs/"):]
                if file:
                    out[key] = f"#/$defs/{import_schema(file)}.{name}"
                elif origin:
                    out[key] = f"#/$defs/{origin}.{name}"
                else:
                    out[key] = value
            else:
                out[key] = rewrite(value, origin)
        return out

    local = rewrite(schema, None)
    if imported:
        local.setdefault("$defs", {}).update(imported)
    return local


def json_path(path):
    """A jsonschema error path as $.runs[0].results[2].level."""
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def leaves(error):
    """The errors to show for error: itself, or for a oneOf/anyOf that no
    branch matched, the errors of the closest branch (jsonschema's
    best_match), recursively -- the mismatch, not the whole instance."""
    if not error.context:
        return [error]
    best = jsonschema.exceptions.best_match(error.context)
    branch = best.relative_schema_path[0]
    out = []
    for e in error.context:
        if e.relative_schema_path[0] == branch:
            out += leaves(e)
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    schema = with_local_references(schema, os.path.dirname(argv[1]) or ".")
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)

    failed = False
    for name in argv[2:]:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as f:
                    text = f.read()
            docs = documents(text)
        except (OSError, ValueError) as e:
            print(f"{name}: not JSON: {e}")
            failed = True
            continue
        if not docs:
            print(f"{name}: no JSON document")
            failed = True
        for i, doc in enumerate(docs):
            where = name if len(docs) == 1 else f"{name} (document {i + 1})"
            errors = sorted(validator.iter_errors(doc),
                            key=lambda e: (list(map(str, e.absolute_path)),
                                           e.message))
            for e in errors:
                for leaf in leaves(e):
                    print(f"{where}: {json_path(leaf.absolute_path)}: "
                          f"{leaf.message}")
            failed |= bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
