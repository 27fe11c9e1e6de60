#!/usr/bin/env bash
# Regenerates docs/cli.md, the command-line reference, from the verb specs (`stint help --markdown`).
# CLIReferenceTests fails while docs/cli.md differs from what this writes.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product stint >&2
.build/debug/stint help --markdown > docs/cli.md
echo "wrote docs/cli.md" >&2
