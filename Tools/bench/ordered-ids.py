#!/usr/bin/env python3
"""What record ids ordered by time would save a `stint sync` (docs/decisions/0012): the steady replica's sync
with the other device's new events as generated, against the same events with the records they create given
ids that sort after nearly every id the replica holds (all but the one in 65 536 that begins `ffff`), alternating.

Run it after `steady-sync.py` made the steady replica (…/work/sync-N/steady):

    python3 Tools/bench/ordered-ids.py .build/bench1m/work/sync-1000000/steady [--runs 20] [--stint BIN]

The device whose copy in the folder extends its mirror in the saved replica is the one rewritten: in its last
segment, the frames after the mirror's bytes are decompressed, the created records' ids get the first eight
digits `ffff0001`, `ffff0002`, … (the rest kept, so every line keeps its length and stays canonical), each
event's `prev` is linked again, and every batch is compressed again as its own frame with the `zstd` tool
(content size and checksum declared). The same with the ids unchanged must give the segment back byte for byte,
which the script checks first: then nothing else differs. The folder's segment is put back at the end.
Needs `zstd` and `rsync`; prints, per version, the pages of the read models' file the sync changed and the
sync's and the `start`'s CPU and wall clock (medians and first quartiles).
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from steady_replica import add_bench_arguments, alternate, bench_env  # noqa: E402

RECORD_ID = re.compile(rb'"recordId":"([0-9a-f-]{36})"')
CREATING = ("timer.started", "record.tracked")


def zstd(arguments, data):
    return subprocess.run(["zstd", *arguments], input=data, capture_output=True, check=True).stdout


def rewritten_device(steady):
    """The device, its last segment's path in the folder, and the length of the mirror's bytes it starts with."""
    for device in sorted(os.listdir(os.path.join(steady, "saved", "mirrors"))):
        mirror = os.path.join(steady, "saved", "mirrors", device)
        names = sorted(name for name in os.listdir(mirror) if name.endswith(".jsonl.zst"))
        folder = os.path.join(steady, "folder", "devices", device, names[-1])
        held = open(os.path.join(mirror, names[-1]), "rb").read()
        copy = open(folder, "rb").read()
        if len(copy) > len(held) and copy.startswith(held):
            return device, folder, len(held)
    sys.exit("no device's copy in the folder extends its mirror: run steady-sync.py first")


def ids_held(steady, segment, cut):
    """Every record id in the folder's copies, but in the new part of `segment`."""
    held = set()
    devices = os.path.join(steady, "folder", "devices")
    for device in os.listdir(devices):
        for name in os.listdir(os.path.join(devices, device)):
            path = os.path.join(devices, device, name)
            if name.endswith(".jsonl.zst"):
                data = open(path, "rb").read()
                held.update(RECORD_ID.findall(zstd(["-dc"], data[:cut] if path == segment else data)))
    return held


def rebuilt(segment_bytes, cut, renamed):
    """The segment with the frames after `cut` made again, ids renamed as `renamed` says."""
    before = zstd(["-dc"], segment_bytes[:cut]).split(b"\n")[-2]
    lines = zstd(["-dc"], segment_bytes[cut:]).split(b"\n")[:-1]
    prev = hashlib.sha256(before + b"\n").hexdigest()[:32]
    batches, batch, batch_tx = [], [], None
    for line in lines:
        for old, new in renamed.items():
            line = line.replace(old, new)
        line = re.sub(rb'"prev":"[0-9a-f]{32}"', b'"prev":"' + prev.encode() + b'"', line, count=1)
        prev = hashlib.sha256(line + b"\n").hexdigest()[:32]
        tx = json.loads(line).get("tx")
        if batch and (tx is None or tx != batch_tx):
            batches.append(batch)
            batch = []
        batch.append(line)
        batch_tx = tx
        if tx is None:
            batches.append(batch)
            batch = []
    if batch:
        batches.append(batch)
    frames = b"".join(
        zstd(["-3", "-q", "-c", "--check", f"--stream-size={len(content)}"], content)
        for content in (b"".join(line + b"\n" for line in batch) for batch in batches))
    return segment_bytes[:cut] + frames


def changed_pages(before, after):
    size = int.from_bytes(after[16:18], "big")
    size = 65536 if size == 1 else size  # SQLite writes 64 KiB as 1
    return sum(1 for page in range(len(after) // size)
               if after[page * size:(page + 1) * size] != before[page * size:(page + 1) * size])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("steady", help="steady-sync.py's steady replica (…/work/sync-N/steady)")
    add_bench_arguments(parser, runs=20)
    args = parser.parse_args()
    steady = os.path.abspath(args.steady)
    stint = os.path.abspath(args.stint)
    env = dict(bench_env(os.path.dirname(steady), args.data), STINT_LOG=os.path.join(steady, "log"))
    restore = os.path.join(steady, "restore.sh")

    device, segment, cut = rewritten_device(steady)
    original = open(segment, "rb").read()
    if rebuilt(original, cut, {}) != original:
        sys.exit("the frames made again with the ids unchanged differ from the folder's: nothing to compare")
    held = ids_held(steady, segment, cut)
    created = []
    for line in zstd(["-dc"], original[cut:]).split(b"\n")[:-1]:
        event = json.loads(line)
        record = ((event.get("data") or {}).get("recordId") or "").encode()
        if event["type"] in CREATING and record and record not in held and record not in created:
            created.append(record)
    renamed = {record: b"ffff%04x" % (index + 1) + record[8:] for index, record in enumerate(created)}
    versions = {"random": original, "ordered": rebuilt(original, cut, renamed)}
    print(f"device {device[:8]}: {len(created)} records created by the new events")

    models = os.path.join(steady, "log", "read-models.sqlite")
    saved = open(os.path.join(steady, "saved", "read-models.sqlite"), "rb").read()

    def changed(name):
        print(f"{name}: {changed_pages(saved, open(models, 'rb').read())} pages of the read models changed")

    def writing(data):
        return lambda: open(segment, "wb").write(data)

    try:
        alternate({name: (stint, writing(data)) for name, data in versions.items()}, restore, env, args.runs,
                  after_first_sync=changed)
    finally:
        # The folder's segment as it was, and the replica restored from it.
        open(segment, "wb").write(original)
        subprocess.run([restore], check=True)

if __name__ == "__main__":
    main()
