#!/usr/bin/env bash
# Installs what building and testing Stint needs and is missing, and says what it does.
#   - libzstd-dev and zstd (the log's compression library and the stock CLI the tests decode with)
#   - libssl-dev (OpenSSL's libcrypto for the SHA-256 hash chain)
#   - libsqlite3-dev (SQLite for the read models, docs/read-models.md)
#   - pkg-config (how SwiftPM finds both)
#   - check-jsonschema from PyPI (validates the golden logs against Events/schema), when python3 exists
# Uses sudo when not run as root. Safe to run again: it installs only what is missing.
set -euo pipefail

say() { printf 'bootstrap: %s\n' "$*" >&2; }

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    SUDO=()
fi

need_apt=()
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libzstd; then need_apt+=(libzstd-dev); fi
command -v zstd >/dev/null 2>&1 || need_apt+=(zstd)
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libcrypto; then need_apt+=(libssl-dev); fi
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists sqlite3; then need_apt+=(libsqlite3-dev); fi

if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ] && [ ${#SUDO[@]} -eq 0 ]; then
        say "missing: ${need_apt[*]}; install them as root: apt-get install -y ${need_apt[*]}"
        exit 1
    fi
    say "installing with apt: ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! "${SUDO[@]}" apt-get install -y -q "${need_apt[@]}" >/dev/null; then
        say "apt-get install failed; refreshing the package lists and trying again"
        "${SUDO[@]}" apt-get update -q >/dev/null
        "${SUDO[@]}" apt-get install -y -q "${need_apt[@]}" >/dev/null
    fi
fi

if ! command -v check-jsonschema >/dev/null 2>&1; then
    if command -v python3 >/dev/null 2>&1; then
        say "installing check-jsonschema with pip (validates Events/ against its JSON Schemas)"
        if ! python3 -m pip install -q --disable-pip-version-check check-jsonschema >/dev/null 2>&1; then
            say "pip could not install check-jsonschema; schema validation will be skipped"
        fi
    else
        say "python3 not found; schema validation will be skipped"
    fi
fi

say "ready (libzstd $(pkg-config --modversion libzstd), libcrypto $(pkg-config --modversion libcrypto), sqlite3 $(pkg-config --modversion sqlite3))"
