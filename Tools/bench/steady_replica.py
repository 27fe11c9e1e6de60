"""A replica in a steady state for timing `stint sync` (used by bench.py's sync group and steady-sync.py).

Restoring a replica by copying it gives every sealed segment of the mirror that takes the events in a new
inode and change time, so the mirror's writer hashes them all again (docs/performance.md, "A replica's
commands"); between real commands they stay as they are. `make_steady` restores only the files a sync changed
(`rsync --checksum`: the others keep their inode and change time) and, once, carries the fingerprints the live
files have into the saved copy's `checked` files, so every run starts as a replica in use does. Needs rsync.
"""

import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import time


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


def add_bench_arguments(parser, runs):
    """The options every tool on the steady replica takes: the build, how many runs, bench.py's data."""
    parser.add_argument("--stint", default=".build/release/stint")
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--data", default=".build/bench-data", help="bench.py's --data")


def bench_size(work):
    """The history size of the bench's sync group whose work directory is `work` (…/work/sync-N)."""
    return os.path.basename(work).replace("sync-", "")


def bench_env(work, data):
    """The environment the bench's sync group runs stint in (`work` as above, `data` bench.py's --data): its state
    directory and the generated history's `now`."""
    now = json.load(open(os.path.join(data, f"{bench_size(work)}-seed1", "manifest.json")))["now"]
    return dict(os.environ, XDG_STATE_HOME=os.path.join(work, "full", "state"), STINT_NOW=now)


def make_steady(steady, stint, env, folder_after, replica_log, published_copy, own):
    """Makes `steady` (emptied first): a copy of the sync folder after the other device wrote (`folder_after`),
    the replica `replica_log` saved as it was before that, and the published copy of this device (`own`) as
    generated (`published_copy`). Returns the restore script's path and the environment of the live replica,
    after two syncs that carried the live files' fingerprints into the saved copy."""
    shutil.rmtree(steady, ignore_errors=True)
    folder, saved, live = (os.path.join(steady, name) for name in ("folder", "saved", "log"))
    shutil.copytree(folder_after, folder, symlinks=True)
    shutil.copytree(replica_log, saved, symlinks=True)
    published = os.path.join(steady, "published")
    shutil.copytree(published_copy, published, symlinks=True)
    with open(os.path.join(saved, "space"), "w") as space:
        space.write(folder + "\n")
    restore = os.path.join(steady, "restore.sh")
    with open(restore, "w") as script:
        script.write(f"#!/bin/sh\nrsync -a --checksum --delete {saved}/ {live}/ && "
                     f"rsync -a --checksum --delete {published}/ {folder}/devices/{own}/\n")
    os.chmod(restore, 0o755)
    env = dict(env, STINT_LOG=live)
    for _ in range(2):
        subprocess.run([restore], check=True)
        subprocess.run([stint, "sync"], env=env, check=True, stdout=subprocess.DEVNULL)
        carry_fingerprints(saved, live)
    return restore, env


def timed(command, env):
    """Runs `command`; its wall clock and CPU time in milliseconds. Exits with its output when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall * 1000, cpu * 1000


def quartiles(values):
    """The median and the first quartile of `values`, as the alternating timings print them."""
    ordered = sorted(values)
    return f"median {statistics.median(ordered):.1f} (p25 {ordered[(len(ordered) - 1) // 4]:.1f})"


def alternate(variants, restore, env, runs, after_first_sync=None):
    """`sync` then `start bench` on the restored replica for each of `variants` in turn, `runs` times (the order
    reversed every other round), and prints each one's medians and first quartiles of wall clock and CPU.
    `variants` maps a name to a build of stint and a function run before the restore (or None);
    `after_first_sync(name)` is called after each variant's first sync."""
    times = {name: [] for name in variants}
    names = list(variants)
    for run in range(runs):
        for name in names if run % 2 == 0 else reversed(names):
            stint, prepare = variants[name]
            if prepare:
                prepare()
            subprocess.run([restore], check=True)
            sync = timed([stint, "sync"], env)
            if run == 0 and after_first_sync:
                after_first_sync(name)
            times[name].append((sync, timed([stint, "start", "bench"], env)))
    for name, pairs in times.items():
        print(f"{name} ({runs} runs)")
        for kind, index in (("wall", 0), ("cpu", 1)):
            syncs = [sync[index] for sync, _ in pairs]
            starts = [start[index] for _, start in pairs]
            both = [sync[index] + start[index] for sync, start in pairs]
            print(f"  {kind}: sync {quartiles(syncs)}, start {quartiles(starts)}, both {quartiles(both)} ms")
