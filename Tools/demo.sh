#!/usr/bin/env bash
# The demo: Stint's main job on the sample log shipped in Events/sample/log.
#   Tools/demo.sh [path/to/stint]
# Works on a copy, so the shipped log stays as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
stint=${1:-.build/release/stint}
log=$(mktemp -d)/log
cp -R Events/sample/log "$log"
chmod -R go-rwx "$log"  # a log is its owner's only; verify warns otherwise
trap 'rm -rf "$(dirname "$log")"' EXIT
export STINT_LOG="$log" NO_COLOR=1

run() {
    printf '\n$ stint %s\n' "$*"
    "$stint" "$@"
}

echo "Stint demo on Events/sample/log: two weeks of work in Europe/Berlin, recorded with the CLI."
run verify
run history --since "2026-11-23T00:00" --record ff86
run history --tag meetings
echo
echo "What did the widget show on Tuesday 2026-11-24 at 09:30, and at 10:30?"
run status --at "2026-11-24T09:30"
run summary --period week --at "2026-11-24T09:30"
run snapshot --at "2026-11-24T09:30" | head -n 20
echo "  …"
run timeline --at "2026-11-24T10:30" --json | head -n 12
echo "  …"
run live-activity --at "2026-11-24T09:30"
run log --since "2026-11-23T00:00" --until "2026-11-25T00:00" --at "2026-11-24T10:30"
run widget --family systemMedium --at "2026-11-24T09:30"
run widget --family accessoryRectangular --at "2026-11-24T09:30"
echo
echo "Which edits changed what the widget showed at Tuesday 09:30 (Monday was corrected at 10:55)?"
run diff --from "2026-11-24T09:30" --to "2026-11-24T11:30"
echo
echo "What the app published and reloaded, batch by batch, on Tuesday:"
run replay --since "2026-11-24T00:00"
