#!/usr/bin/env bash
# Builds the libFuzzer targets (Swift with -sanitize=fuzzer,address) and runs each for a given time.
#
#   Tools/fuzz/run.sh [--seconds 60] [--jobs 1] [target…]
#
# Targets: frame-reader, event-decoder, time-argument, command-line (default: all four). The seed corpus of
# each is Events/invalid/fuzz/<target>/; the working corpus grows in .build/fuzz/corpus/<target>/ and
# crashes, leaks and hangs are written to .build/fuzz/artifacts/<target>/. Prints the executions of each
# target and the total, and exits 1 when any target found a crash, leak or hang (turn each into a
# regression test).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
SWIFT="${SWIFT:-swift}"
SWIFTC="${SWIFTC:-swiftc}"
seconds=60
jobs=1
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        frame-reader|event-decoder|time-argument|command-line) targets+=("$1"); shift ;;
        *) echo "usage: $0 [--seconds N] [--jobs N] [frame-reader|event-decoder|time-argument|command-line…]" >&2; exit 64 ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(frame-reader event-decoder time-argument command-line)

SCRATCH="$ROOT/.build/fuzz"
BUILD="$SCRATCH/modules"
MODULES=(StintCore StintLog StintEngine StintCLI)
# The modules are compiled with swiftc, whole-module, one object each (`swift build --sanitize=fuzzer`
# rebuilt everything on every run here); again only when the sources change (about 2 minutes).
stamp="$(cat Package.swift $(find Sources -type f | sort) | sha256sum | cut -d' ' -f1)"
if [[ "$(cat "$BUILD/stamp" 2>/dev/null)" == "$stamp" ]]; then
    echo "the instrumented modules are up to date" >&2
else
    rm -rf "$BUILD"
    mkdir -p "$BUILD"
    for module in "${MODULES[@]}"; do
        echo "compiling $module with -sanitize=fuzzer,address…" >&2
        "$SWIFTC" -parse-as-library -module-name "$module" -package-name Stint -O -wmo -sanitize=fuzzer,address -swift-version 6 \
            -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
            -I "$BUILD" -I Sources/CZstd -I Sources/CCrypto -I Sources/CSQLite -emit-module -emit-module-path "$BUILD/$module.swiftmodule" \
            -c $(find "Sources/$module" -name '*.swift' | sort) -o "$BUILD/$module.o"
    done
    [[ "$(objdump -h "$BUILD/StintLog.o" | grep -c __sancov_cntrs)" -gt 0 ]] ||
        { echo "error: no coverage instrumentation" >&2; exit 1; }
    echo "$stamp" >"$BUILD/stamp"
fi

source_of() {
    case "$1" in
        frame-reader) echo "FrameReaderFuzzer" ;;
        event-decoder) echo "EventDecoderFuzzer" ;;
        time-argument) echo "TimeArgumentFuzzer" ;;
        command-line) echo "CommandLineFuzzer" ;;
    esac
}

total=0
failed=0
for target in "${targets[@]}"; do
    name="$(source_of "$target")"
    binary="$SCRATCH/bin/$target"
    mkdir -p "$SCRATCH/bin" "$SCRATCH/corpus/$target" "$SCRATCH/artifacts/$target" "$SCRATCH/logs"
    modules=(StintCore StintLog)
    [[ "$target" == "command-line" ]] && modules=(StintCore StintLog StintEngine StintCLI)
    objects=()
    for module in "${modules[@]}"; do objects+=("$BUILD/$module.o"); done
    # A target that does not compile fails the run: a binary left from an earlier build must never stand in.
    rm -f "$binary"
    set +e
    "$SWIFTC" -sanitize=fuzzer,address -O -parse-as-library -module-name "$name" "Tools/fuzz/$name.swift" \
        -I "$BUILD" -I Sources/CZstd -I Sources/CCrypto -I Sources/CSQLite "${objects[@]}" -lzstd -lcrypto -lsqlite3 -o "$binary" \
        >"$SCRATCH/logs/$target.compile.log" 2>&1
    compiled=$?
    set -e
    grep -v "Cannot export local symbol" "$SCRATCH/logs/$target.compile.log" >&2 || true
    if [[ $compiled -ne 0 ]] || [[ ! -x "$binary" ]]; then
        failed=1
        echo "$target: FAILED to compile (see $SCRATCH/logs/$target.compile.log)"
        continue
    fi
    log="$SCRATCH/logs/$target.log"
    parallel=()
    [[ "$jobs" -gt 1 ]] && parallel=(-jobs="$jobs" -workers="$jobs")
    set +e
    SWIFT_BACKTRACE=enable=no "$binary" "$SCRATCH/corpus/$target" "$ROOT/Events/invalid/fuzz/$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "${parallel[@]}" \
        -artifact_prefix="$SCRATCH/artifacts/$target/" >"$log" 2>&1
    status=$?
    set -e
    if [[ "$jobs" -gt 1 ]]; then cat fuzz-*.log >>"$log" 2>/dev/null || true; rm -f fuzz-*.log; fi
    runs=$( (grep -h "stat::number_of_executed_units" "$log" || true) | awk '{s += $2} END {print s + 0}')
    total=$((total + runs))
    if [[ $status -ne 0 ]] || [[ -n "$(ls -A "$SCRATCH/artifacts/$target/")" ]]; then
        failed=1
        echo "$target: FAILED after $runs executions (see $log and $SCRATCH/artifacts/$target/)"
        grep -E "ERROR|Fatal error|==[0-9]+==" "$log" | head -5 || true
    else
        counters=$(grep -ho "([0-9]* inline 8-bit counters)" "$log" | head -1 | tr -dc 0-9)
        echo "$target: $runs executions in ${seconds} s, no crash, leak or hang ($(ls "$SCRATCH/corpus/$target" | wc -l) corpus inputs, ${counters:-?} coverage counters)"
    fi
done
echo "total: $total executions"
exit $failed
