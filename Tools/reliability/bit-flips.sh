#!/usr/bin/env bash
# Single-bit flips (docs/reliability.md): every bit of the small sample log, and a seeded sample of
# --flips distinct bits of a larger one of --batches batches (400: about 380 000 bits), each checked
# with the reader, `verify`, the next writer (which must refuse, or append what a cold read then reads)
# and `repair` after a refusal. Prints the damage table of docs/reliability.md for each log. Runs the
# BitFlipTests suite in a release build (with testing enabled) for speed.
#
#   Tools/reliability/bit-flips.sh [--flips 100000] [--batches 400] [--seed 1]
source "$(dirname "$0")/common.sh"
flips=100000
batches=400
seed=1
while [[ $# -gt 0 ]]; do
    case "$1" in
        --flips) flips="$2"; shift 2 ;;
        --batches) batches="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        *) echo "usage: $0 [--flips N] [--batches B] [--seed S]" >&2; exit 64 ;;
    esac
done
"$SWIFT" build -c release -Xswiftc -enable-testing --build-tests >&2
STINT_BIT_FLIPS="$flips" STINT_BIT_FLIP_BATCHES="$batches" STINT_BIT_FLIP_SEED="$seed" STINT_BIT_FLIP_STRIDE=1 \
    "$SWIFT" test -c release -Xswiftc -enable-testing --skip-build --filter BitFlipTests 2>&1 |
    grep -E "bit flips|^\||passed after|failed|byte [0-9]+ bit" | grep -v "^◇"
