#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make mutants: each library under build/mutants/ commits one pitfall of
# spec §1; `q7pred verify --lib` must exit 1 and name exactly the leaves the
# pitfall breaks (derived here from the leaf map, not from the tool), and
# must exit 0 for the unmutated library.
set -u
fail=0
dir=$BUILD/mutants
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ ! -d "$dir" ]; then echo "no $dir: run make mutants"; exit 1; fi

. "${SRCDIR:-$(dirname "$0")/..}/tests/support/mutant_expect.sh"

for m in $MUTANT_NAMES; do
    lib=$dir/$m.so
    "$Q7PRED" verify --lib "$lib" --oracles sem --corpus grid,fuzz --fuzz-count 300 --no-progress >"$out" 2>&1
    rc=$?
    want=$(eval echo "\$expect_$m" | tr ' ' '\n' | grep . | sort)
    got=$(sed -n 's/^failing leaves ([0-9]*)://p' "$out" | tr ' ' '\n' | grep . | sort)
    if [ $rc -ne 1 ]; then
        echo "FAIL: $m: exit $rc, want 1"; fail=1
    elif [ "$want" != "$got" ]; then
        echo "FAIL: $m: failing leaves differ from the pitfall's"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
        fail=1
    else
        echo "ok: $m caught in exactly $(echo "$want" | wc -l) leaves"
    fi
done
"$Q7PRED" verify --lib "$Q7LIB" --oracles sem --corpus grid,fuzz --fuzz-count 300 --no-progress >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -q "^failing leaves" "$out"; then
    echo "FAIL: the unmutated library: exit $rc"; tail -5 "$out"; fail=1
else
    echo "ok: the unmutated library agrees (exit 0)"
fi
exit $fail
