#!/usr/bin/env bash
# The fixed cost of a process (docs/performance.md, "Why the misses"): CPU time and page faults of tiny
# statically linked Swift programs beside `timew --version` and `stint --version`, from `perf stat`.
#
#   Tools/floor/run.sh [STINT]     # STINT: a release stint (default .build/release/stint; `make install` builds one)
set -euo pipefail
cd "$(dirname "$0")/../.."
stint=${1:-.build/release/stint}
out=.build/floor
mkdir -p "$out"
for probe in swift-only essentials; do
    swiftc -O -static-stdlib "Tools/floor/$probe.swift" -o "$out/$probe" 2>/dev/null
done
swiftc -O -static-stdlib Tools/floor/essentials-and-libraries.swift -o "$out/essentials-and-libraries" \
    -lzstd -lsqlite3 -lcrypto 2>/dev/null
# The same as a static executable (how `make` builds stint): no dynamic loader at all.
swiftc -O -static-executable Tools/floor/essentials-and-libraries.swift -o "$out/static-executable" \
    -lzstd -lsqlite3 -lcrypto -lm 2>/dev/null
measure() {
    local name=$1
    shift
    perf stat -r 40 -x, -e task-clock,page-faults "$@" 2>&1 >/dev/null \
        | awk -F, -v name="$name" '$3 == "task-clock" { cpu = $1 } $3 == "page-faults" { faults = $1 }
            END { printf "| %s | %.2f | %d |\n", name, cpu, faults }'
}
echo "| process | CPU ms | page faults |"
echo "|---|---|---|"
if command -v timew >/dev/null; then measure "timew --version" timew --version; fi
measure "Swift, no Foundation" "$out/swift-only"
measure "+ FoundationEssentials" "$out/essentials"
measure "+ libzstd, libsqlite3, libcrypto" "$out/essentials-and-libraries"
measure "the same, static executable" "$out/static-executable"
measure "stint --version" "$stint" --version
