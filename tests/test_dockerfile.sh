#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Dockerfile of docs/scale-out.md builds, and its image runs
# `q7pred verify` and `q7pred call`. Needs a working container tool
# (docker or podman that can reach its engine and pull debian:12-slim):
# without one it is skipped, also under CI=true, since a CI runner usually
# cannot run containers; the skip says which tool was tried and why.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRCDIR"
tool=
why="no docker or podman on PATH"
for t in docker podman; do
    command -v "$t" >/dev/null || continue
    if "$t" info >/dev/null 2>&1; then tool=$t; break; fi
    why="$t is installed but cannot reach a container engine ($t info fails)"
done
[ -n "$tool" ] || { echo "skipped: $why; the Dockerfile is not built here"; exit 77; }
tag=q7pred-test:$$
log=$(mktemp); trap 'rm -f "$log"; "$tool" rmi -f "$tag" >/dev/null 2>&1' EXIT
"$tool" build -t "$tag" . >"$log" 2>&1 || {
    if grep -qiE 'pull|network|resolve|registry|TLS' "$log"; then
        echo "skipped: $tool cannot fetch debian:12-slim here"; exit 77; fi
    cat "$log"; echo "FAIL: $tool build"; exit 1; }
out=$("$tool" run --rm "$tag" call lt_2_16_16 0x8000 1) || { echo "FAIL: the image's q7pred call"; exit 1; }
[ "$out" = "result = 0x3" ] || { echo "FAIL: the image printed '$out', want 'result = 0x3'"; exit 1; }
"$tool" run --rm "$tag" verify --corpus grid --leaf olt_1_1_16f_16f --no-progress --quiet || {
    echo "FAIL: the image's q7pred verify"; exit 1; }
echo "PASS: the Dockerfile builds with $tool; its q7pred calls and verifies"
