# Shared by the reliability scripts: build the debug products once and find them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
SWIFT="${SWIFT:-swift}"

build_products() {
    echo "building (swift build)…" >&2
    "$SWIFT" build >&2
    BIN="$("$SWIFT" build --show-bin-path)"
}
