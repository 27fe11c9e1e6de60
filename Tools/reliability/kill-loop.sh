#!/usr/bin/env bash
# The kill -9 loop (docs/reliability.md): stint-crash-writer and stint commands on one log, killed with
# SIGKILL at random moments; after every round the log is recovered and checked, and every 50 rounds every
# acknowledged event is checked to be present exactly once, gapless, with `stint verify` passing.
#
#   Tools/reliability/kill-loop.sh [--kills 1000] [--seed S] [--max-delay-ms 150] [--check-every 50] [--log DIR]
source "$(dirname "$0")/common.sh"
build_products
exec "$BIN/stint-reliability" kill-loop "$@"
