#!/usr/bin/env bash
# Two stint binaries side by side on the same generated history (docs/performance.md): `start`, `stop` and
# `status`, each on its own copy of the data set so that neither sees the other's files (a `checked` file,
# read models), with hyperfine (warm-up runs, then --runs runs; the median is what docs/performance.md
# quotes). The data set is one of `make bench`'s (`.build/bench-data/<events>-seed1`).
#
#   Tools/bench/ab-commands.sh OLD_STINT NEW_STINT [EVENTS] [RUNS]
#   Tools/bench/ab-commands.sh /tmp/old/.build/release/stint .build/release/stint 1000000 15
set -euo pipefail
old="$1"
new="$2"
events="${3:-1000000}"
runs="${4:-15}"
data=".build/bench-data/${events}-seed1"
[ -f "$data/manifest.json" ] || { echo "no data set in $data: run 'make bench' (or bench.py --sizes $events)" >&2; exit 64; }
now="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['now'])" "$data/manifest.json")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for side in old new; do cp -a "$data/stint" "$work/$side"; done
export STINT_NOW="$now" NO_COLOR=1
# A first command on each copy: the new binary checks a log without a `checked` file whole, once.
"$old" --log "$work/old" status >/dev/null
"$new" --log "$work/new" status >/dev/null
hyperfine -w 3 -r "$runs" --export-markdown "$work/table.md" \
    --prepare "$old --log $work/old stop --all" -n "start (old)" "$old --log $work/old start bench" \
    --prepare "$new --log $work/new stop --all" -n "start (new)" "$new --log $work/new start bench" >&2
cat "$work/table.md"
hyperfine -w 3 -r "$runs" --export-markdown "$work/table.md" \
    --prepare "$old --log $work/old stop --all; $old --log $work/old start bench" -n "stop (old)" "$old --log $work/old stop" \
    --prepare "$new --log $work/new stop --all; $new --log $work/new start bench" -n "stop (new)" "$new --log $work/new stop" >&2
cat "$work/table.md"
hyperfine -w 3 -r "$runs" --export-markdown "$work/table.md" \
    -n "status (old)" "$old --log $work/old status" -n "status (new)" "$new --log $work/new status" >&2
cat "$work/table.md"
