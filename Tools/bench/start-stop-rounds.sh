#!/usr/bin/env bash
# A replica's `start` and `stop` against the single log's, in interleaved rounds (docs/performance.md, "A
# replica's commands"): this machine's noise is larger than the difference between runs, so each round times
# PAIRS `start`s and PAIRS `stop`s on the bench's replica of three devices, then on the single log of the same
# history, and the ratio of each round's medians is taken; prints the median of the rounds' ratios. Run after
# `bench.py --only sync`, which makes both work directories; it appends to both logs.
#
# usage: Tools/bench/start-stop-rounds.sh [STINT] [ROUNDS] [PAIRS] [SIZE]
#   STINT   the binary (default .build/release/stint); ROUNDS (default 10); PAIRS (default 10)
#   SIZE    the bench's history size (default 1000000; the work directories under .build/bench1m/work)
set -euo pipefail
STINT=$(realpath "${1:-.build/release/stint}")
ROUNDS=${2:-10}
PAIRS=${3:-10}
SIZE=${4:-1000000}
WORK=$(realpath .build/bench1m/work)
NOW=$(python3 -c "import json; print(json.load(open('.build/bench-data/$SIZE-seed1/manifest.json'))['now'])")
replica=(env STINT_NOW="$NOW" STINT_LOG="$WORK/sync-$SIZE/full/log" XDG_STATE_HOME="$WORK/sync-$SIZE/full/state")
single=(env STINT_NOW="$NOW" STINT_LOG="$WORK/sync-single-$SIZE/stint" XDG_STATE_HOME="$WORK/sync-single-$SIZE/state")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
ms() { date +%s%N; }
for _ in $(seq "$ROUNDS"); do
    for which in replica single; do
        declare -n run=$which
        "${run[@]}" "$STINT" stop --all >/dev/null 2>&1 || true
        starts=0
        stops=0
        for _ in $(seq "$PAIRS"); do
            a=$(ms)
            "${run[@]}" "$STINT" start bench >/dev/null 2>&1
            b=$(ms)
            "${run[@]}" "$STINT" stop >/dev/null 2>&1
            c=$(ms)
            starts=$((starts + b - a))
            stops=$((stops + c - b))
        done
        echo "$which $((starts / PAIRS)) $((stops / PAIRS))" >>"$out"
        unset -n run
    done
done
python3 - "$out" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
replica = [r for r in rows if r[0] == "replica"]
single = [r for r in rows if r[0] == "single"]
for column, name in ((1, "start"), (2, "stop")):
    mine = [int(r[column]) / 1e6 for r in replica]
    theirs = [int(r[column]) / 1e6 for r in single]
    ratios = [a / b for a, b in zip(mine, theirs)]
    print(f"{name}: replica median {statistics.median(mine):.2f} ms, single log {statistics.median(theirs):.2f} ms, "
          f"ratio per round median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")
PY
