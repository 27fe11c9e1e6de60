#!/usr/bin/env bash
# Tampering at every position (edit, delete, insert, reorder, recompress), truncation at every byte offset
# and zero or garbage tails through the CLI, the I/O-error table and the malformed-input table
# (docs/reliability.md). These run in full in CI too; this is the one command to run them alone.
#
#   Tools/reliability/tamper-and-truncate.sh
source "$(dirname "$0")/common.sh"
"$SWIFT" build --build-tests >&2
"$SWIFT" test --skip-build \
    --filter 'TamperingTests|TruncationCLITests|IOErrorTests|MalformedInputTests|RepeatedIDTests|CreationFailureTests' \
    2>&1 | grep -E "tampering:|Suite .* (passed|failed)|recorded an issue|Test run with"
