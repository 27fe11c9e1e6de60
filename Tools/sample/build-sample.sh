#!/usr/bin/env bash
# Rebuilds Events/sample/log from Tools/sample/commands.txt with the given stint binary.
#   Tools/sample/build-sample.sh [path/to/stint] [output directory]
# Every command runs with STINT_NOW set to its line's instant and ids from STINT_ID_SEED=2026, so the
# result is the same log, byte for byte, on every machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
stint=${1:-.build/debug/stint}
out=${2:-Events/sample/log}
rm -rf "$out"
mkdir -p "$(dirname "$out")"
n=0
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    now=${line%% *}
    arguments=${line#* }
    n=$((n + 1))
    # Each line's arguments are shell words (quotes group words); the ids continue across lines.
    eval "set -- $arguments"
    STINT_NOW="$now" STINT_ID_SEED=$((2026 * 1000 + n)) "$stint" --log "$out" --quiet "$@" >/dev/null
done < Tools/sample/commands.txt
echo "built $out from $n commands" >&2
