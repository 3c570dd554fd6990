#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove on byte-mutated libraries (tests/prove/elf_mutants.py): 200
# mutants of a small library (a fixed seed) through the prover's reading
# of a library, its loaded images and its proof: each ends in a one-line
# refusal or a verdict, never in a Python exception; and a dozen of them
# through the command line: exit 0, 1 or 2, exit 2 with exactly one line,
# never a traceback.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone (a SKIP
# without them, a failure under CI=true) and a C compiler.
# slow: 200 mutants read, 24 loaded twice, 40 proven, 12 through the command line (about 15 s)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
CC=${CC:-cc}
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$CC" -O2 -shared -fPIC -o "$tmp/base.so" tests/prove/hostile_loader/plt_good.c || { echo "FAIL: cannot build the library"; exit 1; }
"$Q7PRED" prove --write-table "$tmp/table.json" || { echo "FAIL: --write-table"; exit 1; }
# the base library itself is proven: a mutant's verdict is of a library that can be proven
"$Q7PRED" prove --quiet --lib "$tmp/base.so" --leaf eq_1_8_8 >"$tmp/base.out" 2>&1 &&
    echo "ok: the unmutated library: $(tail -n 1 "$tmp/base.out")" || { echo "FAIL: the unmutated library"; cat "$tmp/base.out"; fail=1; }
if PYTHONPATH=prover "$PYTHON" tests/prove/elf_mutants.py "$tmp/base.so" "$tmp/table.json" "$Q7PRED" "$tmp" \
        --count 200 --seed 38 --loaded 24 --proven 40 --keep 12 >"$tmp/m.out" 2>&1; then
    echo "ok: $(tail -n 1 "$tmp/m.out")"
else echo "FAIL: mutants:"; cat "$tmp/m.out"; fail=1; fi
for k in $(seq 0 11); do
    lib=$tmp/kept-$k.so
    "$Q7PRED" prove --lib "$lib" --leaf eq_1_8_8 >"$tmp/c.out" 2>&1; rc=$?
    lines=$(wc -l <"$tmp/c.out")
    if grep -q 'Traceback' "$tmp/c.out"; then
        echo "FAIL: mutant $k: a traceback"; cat "$tmp/c.out"; fail=1
    elif [ $rc -eq 2 ] && [ "$lines" = 1 ] && grep -q '^q7pred: prove: ' "$tmp/c.out"; then
        echo "ok: mutant $k: refused in one line: $(cut -c1-160 "$tmp/c.out")"
    elif { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } && grep -q '^1 leaves: ' "$tmp/c.out"; then
        echo "ok: mutant $k: exit $rc, $(grep '^1 leaves: ' "$tmp/c.out")"
    else echo "FAIL: mutant $k: exit $rc, $lines lines"; cat "$tmp/c.out"; fail=1; fi
done
exit $fail
