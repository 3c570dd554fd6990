#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The spec's section 10 driver, cut out of the spec at test time and run
# UNCHANGED but for its library path (BIN = ...), with $PYTHON ctypes against
# libq7pred.so: its output must equal the captured output printed in the spec.
set -euo pipefail
. "$SRCDIR/tests/support/spec_lib.sh"
spec_require
LIB=${Q7LIB:-$SRCDIR/build/libq7pred.so}
PY=${PYTHON:-python3}
[ -r "$LIB" ] || { echo "FAIL: no library at $LIB" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

spec_driver > "$tmp/driver.orig.py"
spec_captured > "$tmp/captured.txt"
[ -s "$tmp/driver.orig.py" ] || { echo "FAIL: no driver found in section 10 of $SPEC" >&2; exit 1; }
[ "$(wc -l < "$tmp/captured.txt")" -eq 10 ] || {
    echo "FAIL: expected 10 captured lines in section 10 of $SPEC" >&2; exit 1; }

# Only the string of the one `BIN = "..."` line changes.
[ "$(grep -c '^BIN = "' "$tmp/driver.orig.py")" -eq 1 ] || {
    echo "FAIL: the driver has no single BIN = \"...\" line" >&2; exit 1; }
case $LIB in *'"'*|*'|'*|*'\'*) echo "FAIL: library path has a quote, | or \\: $LIB" >&2; exit 1 ;; esac
sed 's|^BIN = "[^"]*"|BIN = "'"$LIB"'"|' "$tmp/driver.orig.py" > "$tmp/driver.py"
changed=$(diff "$tmp/driver.orig.py" "$tmp/driver.py" | grep -c '^[<>]' || true)
[ "$changed" -eq 2 ] || { echo "FAIL: the edit changed $changed diff lines, not 1 line" >&2; exit 1; }
diff "$tmp/driver.orig.py" "$tmp/driver.py" || true

echo "running the spec's driver ($(wc -l < "$tmp/driver.py") lines) with $PY"
"$PY" "$tmp/driver.py" > "$tmp/got.txt"
if diff -u "$tmp/captured.txt" "$tmp/got.txt"; then
    echo "PASS: the driver's output equals the spec's captured output (10 lines)"
else
    echo "FAIL: the driver's output differs from the spec's captured output" >&2
    exit 1
fi
