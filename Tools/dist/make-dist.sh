#!/usr/bin/env bash
# make dist: packs a release binary of stint (a static executable, or the Swift runtime linked statically) with its manual page and
# completion scripts, all generated from the verb specs, into dist/stint-VERSION-linux-ARCH.tar.gz with a
# SHA-256 checksum beside it (.sha256, as `sha256sum -c` reads it). Prints the tarball's path last.
#   Tools/dist/make-dist.sh [path/to/release/stint]      (DIST_DIR: where to write, default dist)
# The tarball is reproducible for a commit: sorted names, owner 0, every mtime the commit's time, gzip -n.
set -euo pipefail
cd "$(dirname "$0")/../.."
stint=${1:-.build/release/stint}
out=${DIST_DIR:-dist}
version=$("$stint" --version | awk '{print $2}')
arch=$(uname -m)
name="stint-$version-linux-$arch"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"

# A release binary must not need the Swift toolchain's libraries.
needed=$(readelf -d "$stint" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if grep -q '^libswift\|^libFoundation\|^libdispatch\|^libBlocksRuntime' <<<"$needed"; then
    echo "error: $stint links the Swift runtime dynamically; build it with -static-executable (make dist)" >&2
    exit 1
fi

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d" "$root/share/doc/stint"
install -m 0755 "$stint" "$root/bin/stint"
strip "$root/bin/stint" 2>/dev/null || true
"$stint" help --man > "$root/share/man/man1/stint.1"
"$stint" completions bash > "$root/share/bash-completion/completions/stint"
"$stint" completions zsh > "$root/share/zsh/site-functions/_stint"
"$stint" completions fish > "$root/share/fish/vendor_completions.d/stint.fish"
cp README.md docs/cli.md docs/testing.md "$root/share/doc/stint/"
{
    echo "$("$stint" --version) for Linux $arch."
    echo
    if [ -z "$needed" ]; then
        echo "A static executable: the Swift runtime, Foundation, libzstd, libsqlite3 and libcrypto are linked"
        echo "in, so it loads no shared library and needs no Swift toolchain. (Like every statically linked"
        echo "glibc program, it would need the system's glibc only to look up user or group names, which stint"
        echo "does not do.)"
    else
        echo "The Swift runtime is linked in: no Swift toolchain is needed. The shared libraries it loads:"
        echo
    fi
    for library in $needed; do
        case "$library" in
        libzstd.so*) echo "  $library  (Debian/Ubuntu: libzstd1)" ;;
        libcrypto.so*) echo "  $library  (Debian/Ubuntu: libssl3, libssl3t64 on Ubuntu 24.04)" ;;
        libsqlite3.so*) echo "  $library  (Debian/Ubuntu: libsqlite3-0)" ;;
        *) echo "  $library  (the C and C++ runtime every Linux system has)" ;;
        esac
    done
    echo
    echo "Install: copy bin/ and share/ under a prefix (tar -xzf … --strip-components=1 -C ~/.local)."
    echo "Manual: man share/man/man1/stint.1. Testing widget projections in CI: share/doc/stint/testing.md."
} > "$root/RUNTIME-LIBRARIES"

mtime=$(git log -1 --format=%ct 2>/dev/null || echo 0)
mkdir -p "$out"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$stage" -cf - "$name" |
    gzip -n -9 > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
