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

# The fold seam (docs/decisions/0009-one-seam.md step 3): nothing asks a store whether it is a replica's; only
# the replica's own code (its store, fold and reader) reads a merged position.
seam() {
    local what=$1 pattern=$2
    shift 2
    local found
    found=$(grep -rnE "$pattern" Sources --include='*.swift' | grep -vE "^($(IFS='|'; echo "$*")):" || true)
    if [[ -n $found ]]; then
        echo "error: $what (docs/architecture.md, \"The fold seam\"):" >&2
        echo "$found" >&2
        status=1
    fi
}
seam "a cast to a replica's type outside the replica's fold" '(as[?!]|is) +(any +)?Merged' \
    Sources/StintEngine/Fold/ReplicaFold.swift
seam "a merged position read outside the replica's store, fold and reader" \
    '(position|reached|start\.position)[?]?\.merged\b' \
    'Sources/StintEngine/Store/[^:]*' 'Sources/StintEngine/Fold/ReplicaFold[^:/]*' Sources/StintEngine/MergedHistory.swift
# The read side's seam (step 5): a view asks its source's ``ReadFold``, never whether the source is a replica's.
seam "a read that branches on its source's kind" 'source\.space\b|:[[:space:]]*MergedHistory\b' \
    Sources/StintEngine/Read/ReplicaReadFold.swift Sources/StintEngine/Read/MergedWalk.swift \
    Sources/StintEngine/MergedHistory.swift
exit $status
