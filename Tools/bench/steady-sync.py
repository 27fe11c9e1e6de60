#!/usr/bin/env python3
"""`stint sync` of 1 000 events and the first `start` after it, on a replica in a steady state.

The replica is restored as `steady_replica.py` says (only the files a sync changed), as `bench.py --only sync`
does for its "steady" rows; this times more runs of just those two. Run it after `bench.py --only sync` has made
its work directory:

    python3 Tools/bench/steady-sync.py .build/bench1m/work/sync-1000000 [--runs 12] [--data .build/bench-data]

Needs rsync and hyperfine; prints the medians.

With `--against OTHER` (a second build of stint), it instead alternates the two builds, `--runs` times each: a
restore, `sync`, then `start`, timing each command's wall clock and CPU (user + system, from the kernel's
accounting of the child), and prints each build's medians and first quartiles. On a noisy machine only builds
timed in alternation compare; hyperfine is not needed then.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from steady_replica import add_bench_arguments, alternate, bench_env, bench_size, make_steady  # noqa: E402


def median_ms(export):
    return statistics.median(json.load(open(export))["results"][0]["times"]) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("work", help="the bench's work directory of the sync group (…/work/sync-N)")
    add_bench_arguments(parser, runs=12)
    parser.add_argument("--against", help="another build of stint, timed in alternation with --stint")
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    stint = os.path.abspath(args.stint)
    space = os.path.join(args.data, f"{bench_size(work)}-seed1-space3")
    own = json.load(open(os.path.join(space, "space.manifest.json")))["devices"][0]["id"]
    # The published copy as the bench restores it: the space as generated.
    generated = os.path.join(space, "space", "devices", own)
    steady = os.path.join(work, "steady")
    env = bench_env(work, args.data)
    restore, env = make_steady(steady, stint, env, os.path.join(work, "view-after"), os.path.join(work, "warm", "log"),
                               generated, own)
    if args.against:
        against = os.path.abspath(args.against)
        alternate({stint: (stint, None), against: (against, None)}, restore, env, args.runs)
        return
    results = {}
    for label, command, prepare in (
        ("sync", f"{stint} sync", restore),
        ("start after it", f"{stint} start bench", f"sh -c '{restore} && {stint} sync >/dev/null'"),
    ):
        export = os.path.join(steady, "hyperfine.json")
        subprocess.run(["hyperfine", "-N", "--style", "none", "--runs", str(args.runs), "--export-json", export,
                        "--prepare", prepare, command], env=env, check=True, stdout=subprocess.DEVNULL)
        results[label] = median_ms(export)
        print(f"{label}: median {results[label]:.1f} ms of {args.runs} runs")
    print(f"sync + start: {results['sync'] + results['start after it']:.1f} ms")


if __name__ == "__main__":
    main()
