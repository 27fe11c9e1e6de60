#!/usr/bin/env bash
# Validates every line of the given logs against Events/schema with check-jsonschema (JSON Schema 2020-12):
# each line against the schema of its type and version.
#   Tools/check-schemas.sh LOG...      (a log directory, a .jsonl.zst segment or a .jsonl file)
#   Tools/check-schemas.sh --refused FILE.jsonl...
#                                      (the last line of each file must be refused: invalid examples)
# Exits 1 when a line is invalid or its type has no schema; skips with a notice when check-jsonschema is
# not installed (Tools/bootstrap.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v check-jsonschema >/dev/null 2>&1; then
    echo "check-schemas: check-jsonschema is not installed (Tools/bootstrap.sh installs it); skipped" >&2
    exit 0
fi
if [ "${1:-}" = "--refused" ]; then
    shift
    refused=$(mktemp -d)
    trap 'rm -rf "$refused"' EXIT
    for file in "$@"; do
        tail -n 1 "$file" > "$refused/last.jsonl"
        if "$0" "$refused/last.jsonl" >/dev/null 2>&1; then
            echo "check-schemas: the schema accepts the last line of $file, an invalid example" >&2
            exit 1
        fi
    done
    echo "check-schemas: the last lines of $# invalid example(s) refused by Events/schema" >&2
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for log in "$@"; do
    if [ -d "$log" ]; then
        zstd -dcq "$log"/*.jsonl.zst
    elif [[ "$log" == *.zst ]]; then
        zstd -dcq "$log"
    else
        cat "$log"
    fi
done > "$work/lines.jsonl"
# One file per line, and a schema that sends each line to the schema of its type and version.
python3 - "$work" "$PWD/Events/schema" <<'PY'
import json, os, sys
work, schemas = sys.argv[1], sys.argv[2]
types = sorted(f[:-len(".schema.json")] for f in os.listdir(schemas)
               if f.endswith(".schema.json") and f != "envelope.schema.json")
with open(os.path.join(work, "lines.jsonl"), encoding="utf-8") as lines:
    for number, line in enumerate(lines, 1):
        with open(os.path.join(work, f"line-{number:07}.json"), "w", encoding="utf-8") as out:
            out.write(line)
branches = []
for name in types:
    event_type, _, version = name.partition(".v")
    if version and not version.isdigit():
        event_type, version = name, ""
    branches.append({
        "if": {"properties": {"type": {"const": event_type}, "v": {"const": int(version or 1)}},
               "required": ["type", "v"]},
        "then": {"$ref": "file://" + os.path.join(schemas, name + ".schema.json")},
    })
known = [{"properties": {"type": {"const": b["if"]["properties"]["type"]["const"]},
                         "v": {"const": b["if"]["properties"]["v"]["const"]}}} for b in branches]
dispatch = {"$schema": "https://json-schema.org/draft/2020-12/schema", "allOf": branches, "anyOf": known}
with open(os.path.join(work, "dispatch.schema.json"), "w") as out:
    json.dump(dispatch, out)
PY
count=$(ls "$work"/line-*.json 2>/dev/null | wc -l)
if [ "$count" -eq 0 ]; then
    echo "check-schemas: no lines to check in $*" >&2
    exit 1
fi
if ! check-jsonschema --schemafile "$work/dispatch.schema.json" "$work"/line-*.json >"$work/out.txt" 2>&1; then
    sed "s|$work/line-0*||" "$work/out.txt" | head -40 >&2
    echo "check-schemas: invalid lines above (numbered in the order of: $*)" >&2
    exit 1
fi
echo "check-schemas: $count lines of $# log(s) valid against Events/schema" >&2
