#!/usr/bin/python3
"""Validate a JSON document against one of ssched's schemas (schemas/).

usage: validate_json.py SCHEMA.json DOCUMENT.json   (DOCUMENT "-": stdin)
Exit 0 when valid; 1 with the first error on stderr otherwise.  Uses
Debian's python3-jsonschema (JSON Schema draft 2020-12)."""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    doc = json.load(sys.stdin if sys.argv[2] == "-" else open(sys.argv[2]))
    validator = jsonschema.Draft202012Validator(schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.path) or "(top)"
        print(f"{sys.argv[2]}: {where}: {e.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
