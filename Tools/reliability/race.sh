#!/usr/bin/env bash
# Concurrency (docs/reliability.md): P processes × N `stint start NEWTAG` under the writer lock while readers
# check that every batch they see is whole; then the lock wait (STINT_LOCK_TIMEOUT) of a blocked writer.
#
#   Tools/reliability/race.sh [--processes 4] [--appends 500] [--readers 2] [--log DIR]
source "$(dirname "$0")/common.sh"
build_products
exec "$BIN/stint-reliability" race "$@"
