#!/usr/bin/env bash
# A device that was offline delivers events that sort before what a replica's read models folded (decision
# 0010 step 4, docs/performance.md, "A replica's commands"). On a copy of the bench's replica of three devices
# (after `bench.py --only sync`): 50 `start`/`stop` pairs that the third device takes in, 50 it does not, then
# that device (its clock the same, its replica made from the folder) tracks a record, which sorts among the
# last 100 commands. Times the replica's next command taking it in, with its journal (the rewind) and with the
# journal emptied (the rebuild a late arrival older than the journal costs), `hyperfine` runs each.
#
# usage: Tools/bench/late-arrival.sh WORK DATA [STINT] [RUNS]
#   WORK   the bench's sync work directory, e.g. .build/bench1m/work/sync-1000000
#   DATA   its space data, e.g. .build/bench-data/1000000-seed1-space3
#   STINT  the binary (default .build/release/stint); RUNS (default 5)
set -euo pipefail
WORK=$(realpath "$1")
DATA=$(realpath "$2")
STINT=$(realpath "${3:-.build/release/stint}")
RUNS=${4:-5}
read -r OWN LATE < <(python3 -c "
import json, sys
m = json.load(open(sys.argv[1]))
ids = [d['id'] for d in m['devices']]
print(ids[0], ids[2])" "$DATA/space.manifest.json")
# The generated history's `now`, as the bench's commands take it.
NOW=$(python3 -c "
import json, os, sys
source = json.load(open(sys.argv[1]))['source']
print(json.load(open(os.path.join(os.path.dirname(source), 'manifest.json')))['now'])" "$DATA/space.manifest.json")
export STINT_NOW=$NOW
T=$WORK/late
rm -rf "$T" && mkdir -p "$T/writer/state/stint"
cp -a "$WORK/view-after" "$T/view"
cp -a "$WORK/full" "$T/replica"
echo "$T/view" >"$T/replica/log/space"
replica=(env STINT_LOG="$T/replica/log" XDG_STATE_HOME="$T/replica/state" "$STINT")
pairs() { for _ in $(seq "$1"); do "${replica[@]}" start bench >/dev/null 2>&1; "${replica[@]}" stop >/dev/null 2>&1; done; }
"${replica[@]}" stop --all >/dev/null 2>&1 || true
pairs 50
# The late device's replica, from the folder as it is now: it has seen those 50 pairs.
cp -a "$T/view/devices/$LATE" "$T/writer/log"
mkdir -p "$T/writer/log/mirrors" "$T/writer/folder/devices"
cp "$T/view/space.json" "$T/writer/folder/"
for device in "$T"/view/devices/*; do
    cp -a "$device" "$T/writer/folder/devices/"
    [ "$(basename "$device")" = "$LATE" ] || cp -a "$device" "$T/writer/log/mirrors/"
done
echo "$T/writer/folder" >"$T/writer/log/space"
echo "$LATE" >"$T/writer/state/stint/device"
pairs 50
env STINT_LOG="$T/writer/log" XDG_STATE_HOME="$T/writer/state" "$STINT" track 07:00 07:30 late >/dev/null 2>&1
rm -rf "${T:?}/view/devices/$LATE" && cp -a "$T/writer/folder/devices/$LATE" "$T/view/devices/$LATE"
# Each run starts from these copies: the replica before it took the late events in, and the folder.
cp -a "$T/replica" "$T/replica-before"
cp -a "$T/view/devices/$OWN" "$T/own-before"
restore="rm -rf $T/replica $T/view/devices/$OWN && cp -a $T/replica-before $T/replica && cp -a $T/own-before $T/view/devices/$OWN"
command="env STINT_LOG=$T/replica/log XDG_STATE_HOME=$T/replica/state $STINT stop --all"
echo "saves in the journal: $(sqlite3 "$T/replica/log/read-models.sqlite" 'SELECT sum(saves) FROM merged_journal')"
hyperfine --runs "$RUNS" -i --prepare "$restore" -n rewind "$command" \
    --prepare "$restore && sqlite3 $T/replica/log/read-models.sqlite 'DELETE FROM merged_journal'" -n rebuild "$command"
for kind in rewind rebuild; do
    eval "$restore"
    [ $kind = rebuild ] && sqlite3 "$T/replica/log/read-models.sqlite" 'DELETE FROM merged_journal'
    /usr/bin/time -f "$kind: peak RSS %M KB" $command >/dev/null 2>"$T/time.txt" || true
    tail -1 "$T/time.txt"
done
# The copies (about twice the replica and the folder) are not kept.
rm -rf "$T"
