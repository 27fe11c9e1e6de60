#!/usr/bin/env bash
# ENOSPC for real (docs/reliability.md): a log on a 64 KiB tmpfs is filled by `stint` commands, then by the
# engine-level writer with a tiny seal threshold, until the disk is full. The command that meets ENOSPC
# must exit 1 with an `error:` message; every acknowledged record must be in the log, which must verify;
# and once space is freed the next command must work. Needs root to mount the tmpfs; says so and exits 2
# when it cannot.
#
#   Tools/reliability/enospc-tmpfs.sh [--size 64k]
source "$(dirname "$0")/common.sh"
size=64k
[[ "${1-}" == "--size" ]] && size="$2"
build_products
mnt="$(mktemp -d)"
if ! mount -t tmpfs -o "size=$size" tmpfs "$mnt" 2>/dev/null; then
    echo "cannot mount a tmpfs here (it needs root or CAP_SYS_ADMIN): ENOSPC was not tested for real" >&2
    rmdir "$mnt"
    exit 2
fi
trap 'umount "$mnt"; rmdir "$mnt"' EXIT
stint="$BIN/stint"
log="$mnt/log"
problems=0
fail() { echo "problem: $*" >&2; problems=$((problems + 1)); }
export STINT_LOCK_TIMEOUT=5

"$stint" --log "$log" init --tz UTC >/dev/null
head -c 8192 /dev/zero >"$mnt/filler"
comment="$(printf 'n%.0s' {1..400})"
acked=()
refusals=0
for i in $(seq 1 2000); do
    set +e
    out="$("$stint" --log "$log" --json start "tag-$i" --comment "$comment" 2>"$mnt/../stint-err-$$")"
    status=$?
    set -e
    err="$(cat "$mnt/../stint-err-$$")"
    if [[ $status -eq 0 ]]; then
        acked+=("$(echo "$out" | sed -n 's/.*"recordId" *: *"\([^"]*\)".*/\1/p')")
        continue
    fi
    refusals=$((refusals + 1))
    [[ $status -eq 1 ]] || fail "a full disk made stint exit $status: $err"
    [[ "$err" == error:* ]] || fail "the failure did not start with error: $err"
    echo "after ${#acked[@]} acknowledged commands: exit $status: $(echo "$err" | head -1)"
    break
done
[[ $refusals -gt 0 ]] || fail "the disk never filled up"
# Still full: more commands fail the same way, and the log stays valid.
for i in 1 2 3; do
    set +e
    "$stint" --log "$log" start "again-$i" >/dev/null 2>&1
    status=$?
    set -e
    [[ $status -eq 1 ]] || fail "a command on the full disk exited $status"
done
"$stint" --log "$log" verify >/dev/null || fail "the log does not verify while the disk is full"
history="$("$stint" --log "$log" --json history)"
for id in "${acked[@]}"; do
    [[ "$(grep -c "\"recordId\":\"$id\"" <<<"$history")" -ge 1 ]] || fail "acknowledged record $id is missing"
done
cli_acked=${#acked[@]}

# The engine-level writer seals every ~2 KiB: ENOSPC can land in a seal, after its append was acknowledged.
# It gets a log of its own on a second tmpfs of the same size.
mnt2="$(mktemp -d)"
mount -t tmpfs -o "size=$size" tmpfs "$mnt2"
trap 'umount "$mnt"; rmdir "$mnt"; umount "$mnt2"; rmdir "$mnt2"' EXIT
log2="$mnt2/log"
"$stint" --log "$log2" init --tz UTC >/dev/null
set +e
"$BIN/stint-crash-writer" "$log2" --count 5000 --seal-threshold 2048 --checkpoint-every 0 \
    >"$mnt/../writer-out-$$" 2>"$mnt/../writer-err-$$"
status=$?
set -e
writer_acked=$(grep -c '^ack ' "$mnt/../writer-out-$$" || true)
echo "engine writer: $writer_acked acknowledged commands, then exit $status: $(grep -m1 '^error' "$mnt/../writer-err-$$" || true)"
[[ $status -eq 1 ]] || fail "the engine writer on a full disk exited $status"
seal_failures=$(grep -c "^note: sealing segment" "$mnt/../writer-err-$$" || true)
"$stint" --log "$log2" verify >/dev/null || fail "the log does not verify after the engine writer filled the disk"
last=$("$stint" --log "$log2" verify | sed -n 's/^head \([0-9]*\):.*/\1/p')
while read -r _ first lastseq _; do
    [[ "$lastseq" -le "$last" ]] || fail "acknowledged seq $first…$lastseq is past the log's end $last"
done < <(grep '^ack ' "$mnt/../writer-out-$$")
segments2=$(ls "$log2" | grep -c '\.jsonl\.zst$' || true)

# Free space: the next command works and the log verifies.
rm -f "$mnt/filler" "$mnt"/log/checkpoints/* 2>/dev/null || true
"$stint" --log "$log" stop --all >/dev/null 2>&1 || fail "a command after freeing space failed"
"$stint" --log "$log" verify >/dev/null || fail "the log does not verify after freeing space"
rm -f "$mnt/../stint-err-$$" "$mnt/../writer-out-$$" "$mnt/../writer-err-$$"
echo "enospc on $size tmpfs: $cli_acked stint commands acknowledged then exit 1 (x$((refusals + 3))), all present; engine writer: $writer_acked commands acknowledged over $segments2 segments, $seal_failures seals met ENOSPC after their append was acknowledged; verify passed on both full disks and after freeing space"
if [[ $problems -eq 0 ]]; then echo PASS; else echo "FAIL: $problems problems"; exit 1; fi
