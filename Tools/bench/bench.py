#!/usr/bin/env python3
"""`make bench`: Stint against Timewarrior and Watson on the same generated histories.

Generates seeded histories with `stint-generate` (cached under --data), then measures whole processes
with hyperfine (a warm-up run, then --runs runs; median, min and max) and peak RSS with /usr/bin/time,
and writes results.json and results.md under --out. See docs/performance.md for the reading.

Every command runs with STINT_NOW (or the real clock for the peers) after the generated history, on copies
of the generated data, so the cached data sets stay as generated.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys

from steady_replica import make_steady

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, ".build", "release")


def run(command, env=None, check=True, capture=False):
    result = subprocess.run(
        command, shell=True, env=env, check=False, text=True,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=subprocess.PIPE)
    if check and result.returncode != 0:
        sys.exit(f"error: `{command}` failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    return result.stdout if capture else None


def cached(directory, manifest_name, message, command):
    """The data set in `directory`, made by `command` unless its manifest is there; (directory, manifest)."""
    manifest = os.path.join(directory, manifest_name)
    if not os.path.exists(manifest):
        shutil.rmtree(directory, ignore_errors=True)
        print(f"{message} in {directory}", flush=True)
        run(command)
    with open(manifest) as handle:
        return directory, json.load(handle)


def generate(data, size, seed):
    directory = os.path.join(data, f"{size}-seed{seed}")
    return cached(directory, "manifest.json", f"generating {size} events (seed {seed})",
                  f"{BIN}/stint-generate {directory} --events {size} --seed {seed}")


def work_copy(source, out, name):
    target = os.path.join(out, "work", name)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, symlinks=True)
    return target


class Bench:
    def __init__(self, args):
        self.runs = args.runs
        self.out = args.out
        self.results = []

    def measure(self, group, tool, label, command, env, prepare=None, size=None, note=None, setup=None):
        """Times `command` with hyperfine and measures its peak RSS once; returns the result."""
        if setup:
            run(setup, env=env)
        export = os.path.join(self.out, "hyperfine.json")
        hyperfine = f"hyperfine --style none --warmup 1 --runs {self.runs} --export-json {export}"
        if prepare:
            hyperfine += " --prepare " + shlex_quote(prepare)
        run(hyperfine + " " + shlex_quote(command), env=env)
        with open(export) as handle:
            times = json.load(handle)["results"][0]
        if prepare:
            run(prepare, env=env, check=False)
        rss = run(f"/usr/bin/time -f %M sh -c {shlex_quote(command + ' >/dev/null 2>&1')} 2>&1 >/dev/null",
                  env=env, capture=True, check=False)
        try:
            rss_kb = int(rss.strip().splitlines()[-1])
        except (ValueError, IndexError):
            rss_kb = None
        result = {
            "group": group, "tool": tool, "label": label, "command": command, "size": size,
            "median": times["median"], "min": min(times["times"]), "max": max(times["times"]),
            "mean": times["mean"], "user": times["user"], "system": times["system"],
            "runs": len(times["times"]), "peakRSSKiB": rss_kb, "note": note,
        }
        self.results.append(result)
        print(f"  {group:<12} {tool:<10} {label:<34} median {times['median'] * 1000:9.1f} ms "
              f"(min {result['min'] * 1000:.1f}, max {result['max'] * 1000:.1f}; "
              f"user {times['user'] * 1000:.1f} ms)  RSS {rss_kb} KiB", flush=True)
        return result


def shlex_quote(text):
    return "'" + text.replace("'", "'\"'\"'") + "'"


def stint_env(log, manifest):
    env = dict(os.environ)
    env.update({"STINT_LOG": log, "STINT_NOW": manifest["now"], "NO_COLOR": "1"})
    return env


def directory_bytes(path, suffix=None):
    total = 0
    for base, _, files in os.walk(path):
        for name in files:
            if suffix is None or name.endswith(suffix):
                total += os.path.getsize(os.path.join(base, name))
    return total


def machine():
    def read(command):
        return run(command, capture=True, check=False).strip()
    cpu = read("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-")
    return {
        "cpu": cpu, "cores": os.cpu_count(),
        "memory": read("free -h | awk '/Mem:/{print $2}'"),
        "kernel": read("uname -r"),
        "swift": read("swift --version 2>&1 | head -1"),
        "zstd": read("zstd --version"),
        "timewarrior": read("timew --version"),
        "watson": read("watson --version"),
        "hyperfine": read("hyperfine --version"),
        "loadAverage": read("cat /proc/loadavg"),
        "shaNI": "sha_ni" in read("grep -m1 -o sha_ni /proc/cpuinfo"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=os.environ.get("SIZES", "1000 100000 1000000"),
                        help="event counts of the histories (the peers use 100000, or the middle size)")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("RUNS", "5")))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--points", type=int, default=20, help="historical snapshots of the largest log")
    parser.add_argument("--data", default=os.path.join(ROOT, ".build", "bench-data"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "bench"))
    parser.add_argument("--only", default="",
                        help="a partial run: some of read,size,replay,historical,append,imported,floor,cold,sync "
                             "(comma-separated); "
                             "prints the figures and writes results.json, not results.md")
    args = parser.parse_args()
    # Absolute: a replica's `space` file names its sync folder by an absolute path.
    args.out, args.data = os.path.abspath(args.out), os.path.abspath(args.data)
    groups = {"read", "size", "replay", "historical", "append", "imported", "floor", "cold", "sync"}
    only = {group for group in args.only.replace(",", " ").split()} or groups
    if not only <= groups:
        sys.exit(f"error: --only takes {', '.join(sorted(groups))}, not {', '.join(sorted(only - groups))}")
    sizes = sorted({int(size) for size in args.sizes.replace(",", " ").split()})
    small, large = sizes[0], sizes[-1]
    peer = 100000 if 100000 in sizes else sizes[len(sizes) // 2]
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.data, exist_ok=True)
    for tool in ("hyperfine", "timew", "watson"):
        if shutil.which(tool) is None:
            sys.exit(f"error: {tool} is missing; `make bench` installs it (apt-get install timewarrior hyperfine, "
                     "pip install td-watson)")

    sets = {size: generate(args.data, size, args.seed) for size in sizes}
    bench = Bench(args)
    stint = f"{BIN}/stint"
    info = machine()
    print(f"machine: {info['cpu']}, {info['cores']} cores, load {info['loadAverage']}", flush=True)

    if "read" in only:
        # Read verbs first, on copies of the generated data.
        source, manifest = sets[peer]
        copy = work_copy(source, args.out, f"read-{peer}")
        env = stint_env(copy + "/stint", manifest)
        env["TIMEWARRIORDB"] = copy + "/timew"
        env["WATSON_DIR"] = copy + "/watson"
        # A first read leaves the checkpoint every later read starts from, as in everyday use.
        run(f"{stint} snapshot", env=env)
        bench.measure("report", "stint", f"report --all --by tag ({peer})", f"{stint} report --all --by tag", env,
                      size=peer)
        bench.measure("report", "timew", f"summary :all ({peer})", "timew summary :all", env, size=peer)
        bench.measure("report", "watson", f"report -a --json ({peer})", "watson report -a --json", env, size=peer)
        bench.measure("export", "stint", f"export json ({peer})", f"{stint} export json", env, size=peer)
        bench.measure("export", "stint", f"log --all --json ({peer})", f"{stint} log --all --json", env, size=peer)
        bench.measure("export", "timew", f"export ({peer})", "timew export", env, size=peer)
        bench.measure("export", "watson", f"log -a --json ({peer})", "watson log -a --json", env, size=peer)

    # Size on disk per interval.
    sizes_on_disk = []
    replays, replay_rates, historical, points = [], [], [], []
    if "size" in only:
        for size in sizes:
            source, manifest = sets[size]
            intervals = manifest["intervals"]
            row = {"size": size, "events": manifest["events"], "intervals": intervals,
                   "stintBytes": directory_bytes(source + "/stint", ".jsonl.zst")}
            if size == peer:
                row["timewBytes"] = directory_bytes(source + "/timew/data")
                row["watsonBytes"] = os.path.getsize(source + "/watson/frames")
            sizes_on_disk.append(row)

    # Cold replay of the largest log: the checkpoints directory removed before every run.
    source, manifest = sets[large]
    copy = work_copy(source, args.out, f"replay-{large}")
    env = stint_env(copy + "/stint", manifest)
    checkpoints = copy + "/stint/checkpoints"
    if "replay" in only:
        cold = bench.measure("replay", "stint", f"snapshot, no checkpoints ({large})", f"{stint} snapshot", env,
                             prepare=f"rm -rf {checkpoints}", size=large,
                             note="EngineOptions.writesCheckpoints is on: the run also writes its checkpoints")
        cold["eventsPerSecond"] = manifest["events"] / cold["median"]
        # In process, no checkpoints: the reference fold on one read thread, the compact fold on one and two.
        for fold, jobs in (("reference", 1), ("compact", 1), ("compact", 2)):
            in_process = run(f"{BIN}/stint-bench replay {copy}/stint --runs {args.runs} --jobs {jobs} --fold {fold}",
                             capture=True)
            lines = [json.loads(line) for line in in_process.splitlines() if line.strip()]
            replays += lines
            rates = sorted(line["eventsPerSecond"] for line in lines)
            print(f"  in process   {fold} fold, {jobs} read thread(s): median {statistics.median(rates):,.0f} "
                  f"events per wall second (min {rates[0]:,.0f}, max {rates[-1]:,.0f})", flush=True)
        replay_rates = sorted(line["eventsPerSecond"] for line in replays
                              if line["fold"] == "compact" and line["jobs"] == 2)
        cold["cpuEventsPerSecond"] = manifest["events"] / (cold["user"] + cold["system"])

    if "cold" in only:
        # Issue 13: what a CI job, an audit or a lost cache waits for, on the largest log, with one worker
        # thread and with two (STINT_JOBS): `verify`; a snapshot with no checkpoints and no read models; and
        # the first mutation with neither, which rebuilds the read models (a switch, so every run appends).
        source, manifest = sets[large]
        cold_copy = work_copy(source, args.out, f"cold-{large}")
        log = cold_copy + "/stint"
        caches = f"rm -rf {log}/checkpoints {log}/read-models.sqlite*"
        for jobs in (1, 2):
            env = stint_env(log, manifest)
            env["STINT_JOBS"] = str(jobs)
            threads = f"{jobs} thread{'s' if jobs > 1 else ''}"
            for label, command in (("verify", "verify"), ("snapshot, no caches", "snapshot"),
                                   ("rebuild (start), no caches", "start bench")):
                result = bench.measure("cold", "stint", f"{label}, {threads} ({large})", f"{stint} {command}",
                                       env, prepare=None if command == "verify" else caches, size=large)
                result["jobs"] = jobs
                result["eventsPerSecond"] = manifest["events"] / result["median"]

    if "historical" in only:
        # Historical snapshots at seeded random points, with the checkpoints one cold read leaves.
        run(f"rm -rf {checkpoints} && {stint} snapshot && cp -a {checkpoints} {checkpoints}.kept", env=env)
        chooser = random.Random(args.seed)
        points = sorted(chooser.randint(2, manifest["events"]) for _ in range(args.points))
        historical = []
        for seq in points:
            historical.append(bench.measure(
                "historical", "stint", f"snapshot --seq {seq} ({large})", f"{stint} snapshot --seq {seq}", env,
                prepare=f"rm -rf {checkpoints} && cp -a {checkpoints}.kept {checkpoints}", size=large))

    if "floor" in only:
        # The cost of a process that does nothing.
        bench.measure("floor", "stint", "stint --version", f"{stint} --version", dict(os.environ))
        bench.measure("floor", "timew", "timew --version", "timew --version", dict(os.environ))

    if "imported" in only:
        # A history written by the real Timewarrior and brought in with `stint import timewarrior`: one batch of
        # every interval, as a person migrating from Timewarrior makes it.
        source, manifest = sets[peer]
        copy = work_copy(source, args.out, f"imported-{peer}")
        env = stint_env(copy + "/imported", manifest)
        env["TIMEWARRIORDB"] = copy + "/timew"
        env["WATSON_DIR"] = copy + "/watson"
        run(f"timew export > {copy}/timew-export.json", env=env)
        run(f"{stint} init --tz UTC && {stint} import timewarrior {copy}/timew-export.json", env=env)
        intervals = manifest["intervals"]
        bench.measure("imported", "stint", f"start (imported {intervals})", f"{stint} start bench", env,
                      prepare=f"{stint} stop --all", size=peer)
        bench.measure("imported", "stint", f"stop (imported {intervals})", f"{stint} stop", env,
                      prepare=f"{stint} stop --all && {stint} start bench", size=peer)
        run(f"{stint} start bench", env=env)
        bench.measure("imported", "stint", f"status (imported {intervals})", f"{stint} status", env, size=peer)
        bench.measure("imported", "stint", f"report --all --by tag (imported {intervals})",
                      f"{stint} report --all --by tag", env, size=peer)
        bench.measure("imported", "stint", f"export json (imported {intervals})", f"{stint} export json", env,
                      size=peer)
        run("timew start bench :quiet :adjust", env=env)
        bench.measure("imported", "timew", f"get dom.active ({peer})", "timew get dom.active", env, size=peer)
        run("timew stop :quiet || true", env=env)
        # The same imported history as a space's replica (`stint sync init`; one device): its one batch of
        # every interval goes through the merged fold, a cold read against the single log's, then warm.
        single = copy + "/imported"
        replica = copy + "/replica"
        shutil.copytree(single, replica, symlinks=True)
        replica_env = dict(stint_env(replica, manifest))
        replica_env["XDG_STATE_HOME"] = copy + "/replica-state"
        run(f"{stint} sync init {copy}/folder", env=replica_env)
        caches = "rm -rf {0}/checkpoints {0}/read-models.sqlite*"
        for label, run_env, path in (("single log", env, single), ("replica", replica_env, replica)):
            bench.measure("imported", "stint", f"cold snapshot, {label} (imported {intervals})",
                          f"{stint} --json snapshot", run_env, prepare=caches.format(path), size=peer)
        bench.measure("imported", "stint", f"snapshot, replica with its merged checkpoint (imported {intervals})",
                      f"{stint} --json snapshot", replica_env, setup=f"{stint} --json snapshot >/dev/null", size=peer)
        bench.measure("imported", "stint", f"start, replica (imported {intervals})", f"{stint} start bench",
                      replica_env, prepare=f"{stint} stop --all", size=peer)
        for size in sorted({peer, large}):
            source, manifest = sets[size]
            status_copy = work_copy(source, args.out, f"status-{size}")
            status_env = stint_env(status_copy + "/stint", manifest)
            run(f"{stint} stop --all; {stint} start bench", env=status_env)
            bench.measure("status", "stint", f"status ({size})", f"{stint} status", status_env, size=size)

    if "append" in only:
        # Appends, each on its own copy: start with nothing running, stop with one timer running.
        appends = []
        for size in sorted({small, peer, large}):
            source, manifest = sets[size]
            copy = work_copy(source, args.out, f"append-{size}")
            env = stint_env(copy + "/stint", manifest)
            # As in everyday use, the log has been read before (the warm-up run would do it otherwise).
            run(f"{stint} snapshot", env=env)
            appends.append(bench.measure("append", "stint", f"start ({size})", f"{stint} start bench", env,
                                         prepare=f"{stint} stop --all", size=size))
            appends.append(bench.measure("append", "stint", f"stop ({size})", f"{stint} stop", env,
                                         prepare=f"{stint} stop --all && {stint} start bench", size=size))
            if size == peer:
                env["TIMEWARRIORDB"] = copy + "/timew"
                env["WATSON_DIR"] = copy + "/watson"
                appends.append(bench.measure("append", "timew", f"start ({size})", "timew start bench :quiet :adjust", env,
                                             prepare="timew stop :quiet || true", size=size))
                appends.append(bench.measure("append", "timew", f"stop ({size})", "timew stop :quiet", env,
                                             prepare="(timew stop :quiet || true) && timew start bench :quiet :adjust && sleep 1",
                                             size=size, note="timew refuses an interval shorter than a second"))
                appends.append(bench.measure("append", "watson", f"start ({size})", "watson start bench", env,
                                             prepare="watson stop || true", size=size))
                appends.append(bench.measure("append", "watson", f"stop ({size})", "watson stop", env,
                                             prepare="(watson stop || true) && watson start bench", size=size))

    if "sync" in only:
        for size in sizes:
            sync_group(bench, args, sets[size], size, stint)

    report = {"machine": info, "runs": args.runs, "seed": args.seed, "sizes": sizes, "peerSize": peer,
              "results": bench.results, "sizeOnDisk": sizes_on_disk, "inProcessReplay": replays,
              "historicalPoints": points}
    with open(os.path.join(args.out, "results.json"), "w") as handle:
        json.dump(report, handle, indent=1)
    if only != groups:
        if historical:
            medians = sorted(result["median"] for result in historical)
            print(f"historical: median of medians {medians[len(medians) // 2] * 1000:.1f} ms, "
                  f"best {medians[0] * 1000:.1f}, worst {medians[-1] * 1000:.1f}", flush=True)
        print(f"a partial run (--only {args.only}): figures in {args.out}/results.json")
        return
    markdown = render(report, replay_rates, historical, manifest)
    with open(os.path.join(args.out, "results.md"), "w") as handle:
        handle.write(markdown)
    print("\n" + markdown)
    print(f"wrote {args.out}/results.json and results.md")


def space_data(data, source, size, seed, tail):
    """The history of `source` split across three devices' logs (`stint-bench space`), cached."""
    directory = os.path.join(data, f"{size}-seed{seed}-space3")
    return cached(directory, "space.manifest.json", f"splitting {size} events across 3 devices",
                  f"{BIN}/stint-bench space {source}/stint {directory} --devices 3 --seed {seed} --tail {tail}")


def sync_group(bench, args, generated, size, stint):
    """Issue 14's goals on a space whose three devices' logs hold the generated history (docs/performance.md,
    "Several devices"): the cold merged snapshot of a replica against the single log's, `stint sync` bringing
    in 1 000 events another device wrote, and the first mutation after it, on a replica without merged
    checkpoints (cold) and on one an earlier command left one in (warm)."""
    source, manifest = generated
    tail = 1000
    space, layout = space_data(args.data, source, size, args.seed, tail)
    devices = [device["id"] for device in layout["devices"]]
    own, writer = devices[0], layout["tailDevice"]
    work = os.path.join(args.out, "work", f"sync-{size}")
    shutil.rmtree(work, ignore_errors=True)
    # Two views of the sync folder: before the other device wrote its last 1 000 events, and after.
    views = {}
    for name, writer_copy in (("before", os.path.join(space, "before-tail", writer)),
                              ("after", os.path.join(space, "space", "devices", writer))):
        view = os.path.join(work, f"view-{name}")
        os.makedirs(os.path.join(view, "devices"))
        shutil.copy(os.path.join(space, "space", "space.json"), view)
        for device in devices:
            copy = writer_copy if device == writer else os.path.join(space, "space", "devices", device)
            shutil.copytree(copy, os.path.join(view, "devices", device), symlinks=True)
        views[name] = view
    # The replica of the first device as ingestion leaves it: its own log and the other devices' logs as
    # mirrors (line for line what `stint sync` writes; copied, since ingesting 1M events batch by batch, each
    # synced, takes many minutes).
    def replica(name, view):
        log = os.path.join(work, name, "log")
        shutil.copytree(os.path.join(view, "devices", own), log, symlinks=True)
        for device in devices[1:]:
            shutil.copytree(os.path.join(view, "devices", device), os.path.join(log, "mirrors", device),
                            symlinks=True)
        with open(os.path.join(log, "space"), "w") as handle:
            handle.write(view + "\n")
        os.makedirs(os.path.join(work, name, "state", "stint"))
        with open(os.path.join(work, name, "state", "stint", "device"), "w") as handle:
            handle.write(own + "\n")
        env = stint_env(log, manifest)
        env["XDG_STATE_HOME"] = os.path.join(work, name, "state")
        run(f"{stint} sync", env=env)
        return log, env
    base_log, _ = replica("base", views["before"])
    log, env = replica("full", views["after"])
    events = layout["events"]

    # (a) The cold merged snapshot against the single log's, with the default read threads and with one.
    single = work_copy(source, args.out, f"sync-single-{size}") + "/stint"
    single_env = stint_env(single, manifest)
    merged_bytes = run(f"{stint} --json snapshot", env=env, capture=True)
    single_bytes = run(f"{stint} --json snapshot", env=single_env, capture=True)
    if merged_bytes != single_bytes:
        sys.exit(f"error: the replica's snapshot --json differs from the single log's ({size} events): the split "
                 f"is not the same history")
    caches = "rm -rf {0}/checkpoints {0}/read-models.sqlite*"
    for jobs in (None, 1):
        threads = "default threads" if jobs is None else "STINT_JOBS=1"
        for label, run_env, path, count in (("single log", single_env, single, manifest["events"]),
                                            ("replica of 3 devices", env, log, events)):
            run_env = dict(run_env)
            if jobs:
                run_env["STINT_JOBS"] = str(jobs)
            result = bench.measure("sync", "stint", f"cold snapshot, {label}, {threads} ({size})",
                                   f"{stint} --json snapshot", run_env, prepare=caches.format(path), size=size)
            result["events"] = count
            result["jobs"] = jobs

    # (a2) The same read on a replica in use: the merged checkpoint an earlier command left.
    bench.measure("sync", "stint", f"snapshot, replica with its merged checkpoint ({size})",
                  f"{stint} --json snapshot", env, setup=f"{stint} --json snapshot >/dev/null", size=size)

    # (b) `stint sync` bringing in the other device's last 1 000 events, then the first mutation after it:
    # on a replica without merged checkpoints or read models (cold), and on one whose earlier read left a
    # checkpoint and whose earlier command left its read models (warm, as a replica in use is). Restoring the
    # replica also restores this device's directory in the folder, which its sync published to.
    warm_log = os.path.join(work, "warm", "log")
    shutil.copytree(base_log, warm_log, symlinks=True)
    warm_env = dict(env)
    warm_env["STINT_LOG"] = warm_log
    run(f"{stint} --json snapshot", env=warm_env)
    run(f"{stint} stop --all", env=warm_env, check=False)
    published = os.path.join(views["after"], "devices", own)

    def restore(source):
        return (f"rm -rf {log} {published} && cp -a {source} {log} && printf '%s\\n' {views['after']} > {log}/space "
                f"&& cp -a {space}/space/devices/{own} {published}")
    bench.measure("sync", "stint", f"sync, {tail} new events of another device ({size})", f"{stint} sync", env,
                  prepare=restore(warm_log), size=size)
    for label, source in (("cold", base_log), ("warm", warm_log)):
        bench.measure("sync", "stint", f"first mutation after it, {label}: start ({size})", f"{stint} start bench",
                      env, prepare=f"{restore(source)} && {stint} sync", size=size)
    bench.measure("sync", "stint", f"status ({size})", f"{stint} status", env, size=size)
    # (b2) The same on the warm replica in use (Tools/bench/steady_replica.py), the goal's figure (issue 28): the
    # restore above copies every file, so the mirror's writer hashes its copied sealed segments again (a third
    # of that sync at 1M); this one keeps the files a sync did not change, as they are between real commands.
    restore_steady, steady_env = make_steady(os.path.join(work, "steady"), stint, env, views["after"], warm_log,
                                             os.path.join(space, "space", "devices", own), own)
    bench.measure("sync", "stint", f"sync, {tail} new events, steady ({size})", f"{stint} sync", steady_env,
                  prepare=restore_steady, size=size)
    bench.measure("sync", "stint", f"first mutation after it, steady: start ({size})", f"{stint} start bench",
                  steady_env, prepare=f"{restore_steady} && {stint} sync >/dev/null", size=size)

    # (c) The goals' commands (issue 28: within 1.5x of the single log's) on the replica of three devices in use
    # and on the single log of the same history, side by side; each log's read models built by a command first.
    run(f"{stint} stop --all", env=single_env, check=False)
    for label, run_env in (("replica of 3 devices", env), ("single log", single_env)):
        run(f"{stint} stop --all", env=run_env, check=False)
        bench.measure("sync", "stint", f"warm status, {label} ({size})", f"{stint} status", run_env, size=size)
        bench.measure("sync", "stint", f"warm start, {label} ({size})", f"{stint} start bench", run_env,
                      prepare=f"{stint} stop --all", size=size)
        bench.measure("sync", "stint", f"warm stop, {label} ({size})", f"{stint} stop", run_env,
                      prepare=f"{stint} stop --all; {stint} start bench", size=size)


def ms(seconds):
    return f"{seconds * 1000:.1f}" if seconds < 10 else f"{seconds * 1000:.0f}"


def cpu(result):
    return ms(result["user"] + result["system"])


def cell(result):
    return f"{ms(result['median'])} ({ms(result['min'])}–{ms(result['max'])})"


def render(report, replay_rates, historical, manifest):
    results = report["results"]

    def find(group, tool, label_start):
        for result in results:
            if result["group"] == group and result["tool"] == tool and result["label"].startswith(label_start):
                return result
        return None

    lines = []
    info = report["machine"]
    lines.append(f"Machine: {info['cpu']}, {info['cores']} cores, {info['memory']} RAM, Linux {info['kernel']}, "
                 f"{info['swift']}; {info['timewarrior']} (timew), Watson {info['watson']}, {info['hyperfine']}; "
                 f"load average at the start: {info['loadAverage']}.")
    lines.append("")
    lines.append(f"Whole processes, median (min–max) of {report['runs']} runs after a warm-up, wall time in "
                 "milliseconds, and the mean CPU time (user + system); peak RSS of one more run. Ratios are the "
                 "peer's median wall time over Stint's.")
    lines.append("")
    lines.append("| measurement | Stint | Timewarrior | Watson | Timewarrior / Stint | Watson / Stint | RSS Stint / timew / Watson (MiB) |")
    lines.append("|---|---|---|---|---|---|---|")
    peer = report["peerSize"]

    def rss(result):
        return f"{result['peakRSSKiB'] / 1024:.0f}" if result and result["peakRSSKiB"] else "—"

    def row(title, stint, timew, watson):
        ratio_t = f"{timew['median'] / stint['median']:.1f}×" if timew else "—"
        ratio_w = f"{watson['median'] / stint['median']:.1f}×" if watson else "—"
        lines.append(f"| {title} | {cell(stint)}; CPU {cpu(stint)} | {cell(timew) + '; CPU ' + cpu(timew) if timew else '—'} | "
                     f"{cell(watson) + '; CPU ' + cpu(watson) if watson else '—'} | {ratio_t} | {ratio_w} | "
                     f"{rss(stint)} / {rss(timew)} / {rss(watson)} |")

    for verb in ("start", "stop"):
        for result in results:
            if result["group"] == "append" and result["tool"] == "stint" and result["label"].startswith(verb + " "):
                size = result["size"]
                timew = find("append", "timew", f"{verb} ({size})") if size == peer else None
                watson = find("append", "watson", f"{verb} ({size})") if size == peer else None
                row(f"`{verb}` with {size:,} events of history", result, timew, watson)
    row(f"report, all time by tag ({peer:,} events)", find("report", "stint", "report"),
        find("report", "timew", "summary"), find("report", "watson", "report"))
    row(f"export everything as JSON: `export json` ({peer:,} events)", find("export", "stint", "export json"),
        find("export", "timew", "export"), find("export", "watson", "log"))
    row(f"export everything as JSON: `log --all --json` ({peer:,} events)", find("export", "stint", "log"),
        find("export", "timew", "export"), find("export", "watson", "log"))
    active = find("imported", "timew", "get dom.active")
    for result in results:
        if result["group"] == "status":
            row(f"`status` with {result['size']:,} events of history (timew: `get dom.active`)", result, active, None)
    for verb, timew_label, watson_label, group in (("start", "start", "start", "append"),
                                                   ("stop", "stop", "stop", "append"),
                                                   ("status", "get dom.active", None, "imported"),
                                                   ("report", "summary", "report", "report"),
                                                   ("export", "export", "log", "export")):
        imported = find("imported", "stint", verb)
        if imported:
            timew = find(group, "timew", timew_label if group != "append" else f"{timew_label} ({peer})")
            watson = find(group, "watson", f"{watson_label} ({peer})") if watson_label and group == "append" else (
                find(group, "watson", watson_label) if watson_label else None)
            row(f"`{imported['label'].split(' (')[0]}` on {imported['label'].split('(')[1].rstrip(')')} "
                "intervals imported from Timewarrior", imported, timew, watson)
    floor = find("floor", "stint", "stint --version")
    if floor:
        row("the process floor: `--version`", floor, find("floor", "timew", "timew --version"), None)
    cold = find("replay", "stint", "snapshot")
    row(f"cold replay to a snapshot, no checkpoints ({cold['size']:,} events)", cold, None, None)
    medians = sorted(result["median"] for result in historical)
    worst = max(historical, key=lambda result: result["median"])
    lines.append(f"| historical snapshot at {len(historical)} random points ({cold['size']:,} events) | "
                 f"median of medians {ms(statistics.median(medians))}, best {ms(medians[0])}, "
                 f"worst {ms(worst['median'])} ({worst['label'].split(' (')[0]}) | — | — | — | — | "
                 f"{max(r['peakRSSKiB'] or 0 for r in historical) / 1024:.0f} (max) |")
    lines.append("")
    lines.append(f"Cold replay: {cold['eventsPerSecond']:,.0f} events per second of wall time for the whole "
                 f"`stint snapshot` process (which also writes its checkpoints), "
                 f"{cold['cpuEventsPerSecond']:,.0f} per CPU second (user + system); in process, reading and "
                 f"folding without checkpoints (`stint-bench replay`, the compact fold, two read threads): median "
                 f"{statistics.median(replay_rates):,.0f} events per second of wall time "
                 f"(min {replay_rates[0]:,.0f}, max {replay_rates[-1]:,.0f}).")
    lines.append("")
    lines.append("| log size | events | intervals | Stint bytes | per interval | per event | Timewarrior bytes (per interval) | Watson bytes (per interval) |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for size in report["sizeOnDisk"]:
        intervals = size["intervals"]
        timew = (f"{size['timewBytes']:,} ({size['timewBytes'] / intervals:.1f})" if "timewBytes" in size else "—")
        watson = (f"{size['watsonBytes']:,} ({size['watsonBytes'] / intervals:.1f})"
                  if "watsonBytes" in size else "—")
        lines.append(f"| {size['size']:,} | {size['events']:,} | {intervals:,} | {size['stintBytes']:,} | "
                     f"{size['stintBytes'] / intervals:.1f} | {size['stintBytes'] / size['events']:.1f} | "
                     f"{timew} | {watson} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
