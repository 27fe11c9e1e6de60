#!/usr/bin/env bash
# Every full reliability run of docs/reliability.md, one after the other, with the figures of each in
# .build/reliability/run-<date>.log. About 1.5 hours on 2 cores; FUZZ_SECONDS (default 300 per target)
# sets the fuzzing time, SYNC_SECONDS (default 600) the writing time of the three-device run.
#
#   Tools/reliability/run-all.sh
source "$(dirname "$0")/common.sh"
mkdir -p .build/reliability
out=".build/reliability/run-$(date -u +%Y%m%dT%H%M%SZ).log"
status=0
step() {
    echo "== $*" | tee -a "$out"
    local started=$SECONDS
    if "$@" 2>&1 | tee -a "$out"; then :; else status=1; fi
    echo "   ($((SECONDS - started)) s)" | tee -a "$out"
}
step Tools/reliability/kill-loop.sh --kills 1000
step Tools/reliability/race.sh --processes 4 --appends 500
step Tools/reliability/power-loss.sh --trials 100000
step Tools/reliability/bit-flips.sh --flips 100000
step Tools/reliability/tamper-and-truncate.sh
step Tools/reliability/enospc-tmpfs.sh
step Tools/reliability/sync-processes.sh --seconds "${SYNC_SECONDS:-600}"
step Tools/fuzz/run.sh --seconds "${FUZZ_SECONDS:-300}"
echo "figures in $out"
exit $status
