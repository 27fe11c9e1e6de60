#!/usr/bin/env bash
# Builds a golden case's log from its commands with the real CLI.
#
#   Tools/golden/build-case.sh [--output FILE] CASE_DIR...
#
# Reads CASE_DIR/commands.txt and writes CASE_DIR/events.jsonl (or FILE, for one case). Each line of
# commands.txt is
#
#   <ISO 8601 instant> <stint arguments>  [=> NAME]
#
# run as `STINT_NOW=<instant> STINT_ID_SEED=<line number> stint --log <temporary log> <arguments>`.
# The seed is the line number because the CLI's seeded ids restart in every process: one seed for
# every line would hand out the same ids again. `=> NAME` keeps the first word the command printed
# (the id of a started or tracked record) in $NAME for later lines. Arguments are split as the shell
# splits them ("…" and '…' quote). Blank lines and lines starting with # are skipped. The first command
# is `init`. Any command that fails stops the build.
#
# When every command ran, `stint history --json` of the log is the case's events.jsonl. The binary is
# $STINT, else .build/debug/stint of this repository (run `swift build` first). A space case (case.json
# names "devices") has no events.jsonl: `stint check` runs its commands on each device (docs/testing.md).
set -euo pipefail
set -f

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
stint="${STINT:-$root/.build/debug/stint}"
output=""
if [[ "${1:-}" == "--output" ]]; then
    output="$2"
    shift 2
fi
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [--output FILE] CASE_DIR..." >&2
    exit 64
fi
if [[ -n "$output" && $# -ne 1 ]]; then
    echo "error: --output takes one case directory" >&2
    exit 64
fi
if [[ ! -x "$stint" ]]; then
    echo "error: no stint binary at $stint; run 'swift build' or set STINT" >&2
    exit 1
fi

build() {
    local case_dir="$1" target="$2"
    local commands="$case_dir/commands.txt"
    if [[ -f "$case_dir/case.json" ]] && grep -q '"devices"' "$case_dir/case.json"; then
        echo "error: $case_dir is a space case (case.json names devices): 'stint check $case_dir' builds it" >&2
        return 1
    fi
    if [[ ! -f "$commands" ]]; then
        echo "error: $commands does not exist" >&2
        return 1
    fi
    local work
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' RETURN
    local number=0 line instant rest name printed
    while IFS= read -r line || [[ -n "$line" ]]; do
        number=$((number + 1))
        [[ -z "${line// /}" || "$line" =~ ^[[:space:]]*# ]] && continue
        instant="${line%% *}"
        rest="${line#* }"
        name=""
        if [[ "$rest" =~ ^(.*[^[:space:]])[[:space:]]+=\>[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$ ]]; then
            rest="${BASH_REMATCH[1]}"
            name="${BASH_REMATCH[2]}"
        fi
        # Split like a shell and expand the $NAMEs captured so far.
        eval "set -- $rest"
        if ! printed="$(STINT_NOW="$instant" STINT_ID_SEED="$number" "$stint" --log "$work/log" --quiet "$@" 2>"$work/stderr")"; then
            echo "error: $commands:$number failed: $line" >&2
            cat "$work/stderr" >&2
            return 1
        fi
        if [[ -n "$name" ]]; then
            printf -v "$name" '%s' "${printed%%[[:space:]]*}"
        fi
    done <"$commands"
    "$stint" --log "$work/log" history --json >"$target"
}

for case_dir in "$@"; do
    case_dir="${case_dir%/}"
    build "$case_dir" "${output:-$case_dir/events.jsonl}"
    if [[ -z "$output" ]]; then echo "built $case_dir/events.jsonl"; fi
done
