#!/usr/bin/env bash
# The module layering of docs/architecture.md, checked by `make lint`: each rule is a set of modules a
# source directory must not import. StintCore is the pure domain (Foundation only, for time zones); the
# CLI reaches the log only through StintEngine's API (LogSource, TimeLog, the views), never the log layer
# or a C library.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
forbid() {
    local directory=$1
    shift
    for module in "$@"; do
        local found
        found=$(grep -rnE "^[[:space:]]*(@[A-Za-z_]+(\([A-Za-z_]+\))?[[:space:]]+)*((public|package|internal|private|fileprivate)[[:space:]]+)?import[[:space:]]+${module}\b" \
            "$directory" --include='*.swift' || true)
        if [[ -n $found ]]; then
            echo "error: $directory must not import $module (docs/architecture.md, \"Modules\"):" >&2
            echo "$found" >&2
            status=1
        fi
    done
}

forbid Sources/StintCore StintLog StintEngine StintCLI CZstd CCrypto CSQLite Glibc Darwin Dispatch
forbid Sources/StintLog StintEngine StintCLI CSQLite
forbid Sources/StintEngine StintCLI CZstd CCrypto
forbid Sources/StintCLI StintLog CZstd CCrypto CSQLite
exit $status
