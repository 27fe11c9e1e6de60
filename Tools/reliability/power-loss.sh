#!/usr/bin/env bash
# Simulated power losses through the LogFileSystem seam (docs/reliability.md): seeded trials of
# PowerLossTests, in a release build (with testing enabled) for speed. Prints a summary line per half of
# the trials.
#
#   Tools/reliability/power-loss.sh [--trials 20000] [--seed 1]
source "$(dirname "$0")/common.sh"
trials=20000
seed=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --trials) trials="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        *) echo "usage: $0 [--trials N] [--seed S]" >&2; exit 64 ;;
    esac
done
"$SWIFT" build -c release -Xswiftc -enable-testing --build-tests >&2
STINT_POWER_LOSS_TRIALS="$trials" STINT_POWER_LOSS_SEED="$seed" \
    "$SWIFT" test -c release -Xswiftc -enable-testing --skip-build --filter 'PowerLossTests' 2>&1 |
    grep -E "power loss|passed after|failed|seed [0-9]+:" | grep -v "^◇"
