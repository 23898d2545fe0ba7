#!/usr/bin/python3
"""Validates requests against the schema the host served (rpc.discover's OpenRPC document) with
Debian's python3-jsonschema, and prints the verdicts as JSON lines: one per request, in order.

    validate.py OPENRPC.json REQUESTS.json
REQUESTS.json: [{"method": ..., "params": {...}}, ...]
"""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1]) as f:
        document = json.load(f)
    with open(sys.argv[2]) as f:
        requests = json.load(f)
    validators = {}
    for method in document["methods"]:
        schema = dict(method["x-paramsSchema"])
        # The params schema's $refs name "#/components/schemas/...": resolved in this document.
        schema["components"] = document["components"]
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[method["name"]] = jsonschema.Draft202012Validator(schema)
    for request in requests:
        validator = validators.get(request["method"])
        if validator is None:
            print(json.dumps({"accepted": False, "why": "no such method in the document"}))
            continue
        errors = sorted(validator.iter_errors(request["params"]), key=lambda e: list(e.path))
        why = "" if not errors else "/".join(str(p) for p in errors[0].path) + ": " + errors[0].message[:200]
        print(json.dumps({"accepted": not errors, "why": why}))


if __name__ == "__main__":
    main()
