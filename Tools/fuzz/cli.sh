#!/usr/bin/env bash
# The whole-CLI fuzzer (Tools/fuzz/cli, `stint-cli-fuzz`): builds `stint` and the fuzzer, replays the saved
# regression vectors (Tools/fuzz/cli-regressions/*.vector), then runs new vectors for a given time.
#
#   Tools/fuzz/cli.sh [--debug] [--seconds 1800] [--seed S]
#
# --debug uses the debug build (what `make test` leaves; CI's short run), otherwise a release build. Prints
# the seed, a progress line a minute and the totals; a failing vector prints the command that reproduces it
# and is saved beside the regression vectors. Exits 1 when any vector failed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
SWIFT="${SWIFT:-swift}"
configuration=release
seconds=1800
seed=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --debug) configuration=debug; shift ;;
        --seconds) seconds="$2"; shift 2 ;;
        --seed) seed=(--seed "$2"); shift 2 ;;
        *) echo "usage: $0 [--debug] [--seconds N] [--seed S]" >&2; exit 64 ;;
    esac
done
for product in stint stint-cli-fuzz; do
    "$SWIFT" build -c "$configuration" --product "$product" 2>&1 | tail -n 1 >&2
done
BIN="$ROOT/.build/$configuration"
"$BIN/stint-cli-fuzz" --stint "$BIN/stint" --replay Tools/fuzz/cli-regressions
"$BIN/stint-cli-fuzz" --stint "$BIN/stint" --seconds "$seconds" "${seed[@]}"
