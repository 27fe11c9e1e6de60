#!/usr/bin/env python3
"""`stint sync` of 1 000 events and the first `start` after it, on a replica in a steady state.

`make bench --only sync` restores its replica by copying it before each run, so every sealed segment of the
mirror that takes the events in has a new inode and change time, and the mirror's writer hashes them all again
(docs/performance.md, "A replica's commands"). Between real commands the segments stay as they are. This
restores only the files a sync changed (`rsync --checksum`: the others keep their inode and change time) and,
once, carries the fingerprints the live files have into the saved copy's `checked` files, so every run starts
as a replica in use does. Run it after `bench.py --only sync` has made its work directory:

    python3 Tools/bench/steady-sync.py .build/bench1m/work/sync-1000000 [--runs 12] [--data .build/bench-data]

Needs rsync and hyperfine; prints the medians.
"""

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess


def checked_lines(path):
    data = open(path, "rb").read()
    return data[:-65].decode().split("\n")


def write_checked(path, lines):
    body = "\n".join(lines).encode()
    open(path, "wb").write(body + hashlib.sha256(body).hexdigest().encode() + b"\n")


def carry_fingerprints(saved, live):
    """Gives the sealed segments of each `checked` file of `saved` the fingerprints the `live` copy has for the
    same bytes (docs/log-format.md §5.4: `<name> sealed|active <size> <last seq> <line sha> <sha> <print> <settled>`)."""
    logs = [""] + [os.path.join("mirrors", d) for d in os.listdir(os.path.join(saved, "mirrors"))]
    for log in logs:
        mine, theirs = os.path.join(saved, log, "checked"), os.path.join(live, log, "checked")
        if not (os.path.exists(mine) and os.path.exists(theirs)):
            continue
        known = {line.split(" ")[0]: line.split(" ") for line in checked_lines(theirs)[1:] if line}
        lines = checked_lines(mine)
        for index, line in enumerate(lines[1:], start=1):
            fields = line.split(" ")
            other = known.get(fields[0])
            if line and fields[1] == "sealed" and other and other[1] == "sealed" and other[5] == fields[5]:
                fields[6:8] = other[6:8]
                lines[index] = " ".join(fields)
        write_checked(mine, lines)


def median_ms(export):
    return statistics.median(json.load(open(export))["results"][0]["times"]) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("work", help="the bench's work directory of the sync group (…/work/sync-N)")
    parser.add_argument("--stint", default=".build/release/stint")
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--data", default=".build/bench-data", help="bench.py's --data")
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    stint = os.path.abspath(args.stint)
    size = os.path.basename(work).replace("sync-", "")
    now = json.load(open(os.path.join(args.data, f"{size}-seed1", "manifest.json")))["now"]
    space = os.path.join(args.data, f"{size}-seed1-space3")
    own = json.load(open(os.path.join(space, "space.manifest.json")))["devices"][0]["id"]
    # The published copy as the bench restores it: the space as generated.
    generated = os.path.join(space, "space", "devices", own)
    steady = os.path.join(work, "steady")
    shutil.rmtree(steady, ignore_errors=True)
    folder, saved, live = (os.path.join(steady, name) for name in ("folder", "saved", "log"))
    shutil.copytree(os.path.join(work, "view-after"), folder, symlinks=True)
    shutil.copytree(os.path.join(work, "warm", "log"), saved, symlinks=True)
    published = os.path.join(steady, "published")
    shutil.copytree(generated, published, symlinks=True)
    with open(os.path.join(saved, "space"), "w") as space:
        space.write(folder + "\n")
    restore = os.path.join(steady, "restore.sh")
    with open(restore, "w") as script:
        script.write(f"#!/bin/sh\nrsync -a --checksum --delete {saved}/ {live}/ && "
                     f"rsync -a --checksum --delete {published}/ {folder}/devices/{own}/\n")
    os.chmod(restore, 0o755)
    env = dict(os.environ, STINT_LOG=live, XDG_STATE_HOME=os.path.join(work, "full", "state"), STINT_NOW=now)
    for _ in range(2):
        subprocess.run([restore], check=True)
        subprocess.run([stint, "sync"], env=env, check=True, stdout=subprocess.DEVNULL)
        carry_fingerprints(saved, live)
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
