#!/usr/bin/env bash
# make dist-check: the test of `make dist`. Checks the tarball against its checksum, unpacks it into an empty
# directory, and runs the unpacked stint with an empty environment and nothing on PATH (no Swift toolchain,
# no build tree): --version, the manual page (groff, when installed), and `stint check` on a copy of the
# golden cases, which must all pass. Fails when any step fails. (groff's "cannot adjust line" warnings, for long
# unbreakable words such as JSON samples, are not errors.)
#   Tools/dist/check-dist.sh dist/stint-VERSION-linux-ARCH.tar.gz
set -euo pipefail
cd "$(dirname "$0")/../.."
tarball=${1:?usage: Tools/dist/check-dist.sh TARBALL}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$(dirname "$tarball")" && sha256sum --check --quiet "$(basename "$tarball").sha256")
mkdir "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
root=$(echo "$work"/unpacked/stint-*)
for file in bin/stint share/man/man1/stint.1 share/bash-completion/completions/stint \
    share/zsh/site-functions/_stint share/fish/vendor_completions.d/stint.fish RUNTIME-LIBRARIES; do
    [ -s "$root/$file" ] || { echo "error: the tarball has no $file" >&2; exit 1; }
done
if ldd "$root/bin/stint" | grep -E 'not found|libswift'; then
    echo "error: the unpacked stint needs libraries it should not (above)" >&2
    exit 1
fi
if command -v groff >/dev/null; then
    warnings=$(groff -man -Tutf8 -ww -Wbreak -z "$root/share/man/man1/stint.1" 2>&1)
    [ -z "$warnings" ] || { echo "error: the manual page has roff warnings:" >&2; echo "$warnings" >&2; exit 1; }
fi
cp -R Events/golden "$work/golden"
cd "$work"
env -i PATH=/nonexistent HOME="$work" "$root/bin/stint" --version
env -i PATH=/nonexistent HOME="$work" "$root/bin/stint" check golden
echo "dist-check: $tarball unpacks and passes the golden cases without a toolchain"
