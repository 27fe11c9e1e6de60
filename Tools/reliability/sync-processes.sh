#!/usr/bin/env bash
# Three real `stint` processes as three devices of one space, with skewed clocks, a copier that delays, cuts
# and re-delivers stale copies of the shared folder, and kill -9; after healing, every replica must print the
# same frontier and bytes and hold every acknowledged event once (docs/reliability.md, "Several devices").
# Runs the release binary (built when missing; STINT_BIN chooses another); SYNC_SECONDS (default 300) is
# the time the devices write before healing (CI: SYNC_SECONDS=40).
#
#   Tools/reliability/sync-processes.sh [--seconds 300] [--seed S] [--kill-rate 0.15] [--keep]
source "$(dirname "$0")/common.sh"
BIN_STINT="${STINT_BIN:-$ROOT/.build/release/stint}"
if [[ ! -x "$BIN_STINT" ]]; then
    echo "building the release binary (swift build -c release -Xswiftc -static-executable)…" >&2
    "$SWIFT" build -c release -Xswiftc -static-executable --product stint >&2
fi
command -v zstd >/dev/null || { echo "error: zstd is missing (apt-get install zstd)" >&2; exit 1; }
exec python3 "$ROOT/Tools/reliability/sync-processes.py" --bin "$BIN_STINT" --seconds "${SYNC_SECONDS:-300}" "$@"
