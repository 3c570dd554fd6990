#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred demo prints exactly the spec's captured output (section 10, cut out
# of the spec text at test time), exits 0 and writes nothing on stderr. Run
# against the CLI under test ($Q7PRED) and, when it has been built, the
# ASan+UBSan one too. Needs the spec (tests/support/spec_lib.sh); the rest of the
# CLI's checks are in tests/test_cli.sh.
set -u
. "$SRCDIR/tests/support/spec_lib.sh"
spec_require

want=$(spec_captured)
[ -n "$want" ] || { echo "FAIL: no captured output found in section 10 of $SPEC"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

failed=0
clis=("$Q7PRED")
# the ASan+UBSan CLI too, where the run has that tree (the harness says,
# Q7ASAN_CLI; empty under make check-fast, which does not build it)
asan_cli=${Q7ASAN_CLI-$SRCDIR/build/asan/q7pred}
[ -n "$asan_cli" ] && [ -x "$asan_cli" ] && [ "$asan_cli" != "$Q7PRED" ] && clis+=("$asan_cli")
for CLI in "${clis[@]}"; do
    "$CLI" demo >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -ne 0 ]; then
        failed=$((failed + 1)); echo "FAIL: $CLI demo exited $rc: $(head -c 300 "$tmp/err")"
    elif [ "$(cat "$tmp/out")" != "$want" ]; then
        failed=$((failed + 1)); echo "FAIL: $CLI demo: stdout differs from the spec's captured output"
        diff <(printf '%s\n' "$want") "$tmp/out" | head -20
    elif [ -s "$tmp/err" ]; then
        failed=$((failed + 1)); echo "FAIL: $CLI demo: unexpected stderr: $(head -c 300 "$tmp/err")"
    else
        echo "PASS: $CLI demo equals the spec's captured output ($(wc -l < "$tmp/out") lines)"
    fi
done
[ "$failed" -eq 0 ]
