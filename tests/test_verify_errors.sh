#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Errors name the right thing and nothing passes silently:
# - a --preload whose constructor crashes is blamed, not the --lib after it;
# - a NUL byte in a TestFloat file is reported as such, with FILE:LINE:COL;
# - --preload without --lib, --python or --numpy-oracle without the numpy
#   oracle, a --python that cannot run, a --numpy-oracle that is not one
#   (no Python traceback), a library with none of the selected leaves: a
#   usage error (exit 2) with one line;
# - a run in which no oracle besides sem checked anything is "FAIL: no
#   leaf was checked" (exit 1), never a PASS;
# - "--" ends the options of every subcommand.
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/spec_leaves.sh"

# exit 2, exactly one line on stderr with every expected string, nothing on stdout
usage() { # expected... -- args
    local want=()
    while [ "$1" != -- ]; do want+=("$1"); shift; done
    shift
    "$Q7PRED" "$@" >"$t/o" 2>"$t/e"
    local rc=$? w
    for w in "${want[@]}"; do grep -qF -- "$w" "$t/e" || { bad "$* -> '$(cat "$t/e")' lacks '$w'"; return; }; done
    if [ $rc -ne 2 ] || [ "$(wc -l <"$t/e")" -ne 1 ] || [ -s "$t/o" ]; then
        bad "$* -> exit $rc, stderr '$(cat "$t/e")', stdout $(wc -c <"$t/o") bytes"; return
    fi
    ok "usage error: ${want[0]}"
}

lib=$BUILD/tests/verify_crashlib.so
segv=$BUILD/tests/misbehave/ctor_segv.so
nosyms=$BUILD/tests/misbehave/no_symbols.so
few=(--corpus grid --leaf lt_2_16_16 --no-progress)

usage "cannot load --preload '$segv'" "crashed while loading (SIGSEGV)" -- \
    verify --preload "$segv" --lib "$Q7LIB" "${few[@]}"
grep -qF "cannot load library" "$t/e" && bad "the library after the crashing preload is blamed" \
    || ok "the library after the crashing preload is not blamed"
usage "--preload '$Q7LIB' without a library" -- verify --preload "$Q7LIB" "${few[@]}"
usage "exports none of the $SPEC_LEAF_COUNT module__xdref_* leaf symbols" -- verify --lib "$nosyms" "${few[@]}"
usage "exports none of the selected leaves (4 of $SPEC_LEAF_COUNT leaf symbols)" -- verify --lib "$lib" --corpus grid --leaf lt_1_8_8
usage "the numpy oracle cannot run: cannot run python '/nonexistent/python3'" -- \
    verify --python /nonexistent/python3 "${few[@]}"
usage "'/etc/passwd' is not a numpy oracle program" -- verify --numpy-oracle /etc/passwd "${few[@]}"
grep -q Traceback "$t/e" && bad "a Python traceback leaked" || ok "no Python traceback"
usage "--python is for the numpy oracle" -- verify --python /usr/bin/python3 --oracles sem,host "${few[@]}"
usage "--numpy-oracle is for the numpy oracle" -- verify --numpy-oracle x.py --oracles sem "${few[@]}"
# numpy named by --oracles must start; by default, where it cannot, it is
# n/a and the run INCOMPLETE (exit 1), the verdict naming it
Q7PRED_PYTHON=/nonexistent/python3 "$Q7PRED" verify --oracles sem,numpy "${few[@]}" >/dev/null 2>"$t/e"
[ $? -eq 2 ] && grep -qF "the numpy oracle cannot run" "$t/e" && ok "--oracles numpy that cannot start: exit 2" \
    || bad "--oracles numpy: $(cat "$t/e")"
Q7PRED_PYTHON=/nonexistent/python3 "$Q7PRED" verify "${few[@]}" --quiet >"$t/o" 2>&1
[ $? -eq 1 ] && grep -q "^INCOMPLETE: numpy oracle lost (cannot run python '/nonexistent/python3'" "$t/o" \
    && ok "the default numpy that cannot start is n/a, and the run incomplete" || bad "default numpy: $(cat "$t/o")"

# a NUL byte in a TestFloat file: named, with its line and column
printf 'f16_lt\n3C00 3C00 0 00\n3C\0000 3C00 0 00\n' >"$t/f16_lt.txt"
usage "testfloat: $t/f16_lt.txt:3:3: a NUL byte" -- verify --corpus "testfloat:$t/f16_lt.txt"
printf 'f16_lt\n%0300d\n' 0 >"$t/f16_lt_long.txt"
usage "f16_lt_long.txt:2: line too long" -- verify --corpus "testfloat:$t/f16_lt_long.txt"

# no leaf checked: FAIL, exit 1, in the text, --quiet and the JSON
"$Q7PRED" verify --oracles sem "${few[@]}" --json "$t/none.json" >"$t/o" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^FAIL: no leaf was checked: 196 cases, 0 checks" "$t/o" \
    && grep -q '"status": "fail"' "$t/none.json" && ok "no leaf checked: FAIL, exit 1" \
    || bad "no leaf checked: exit $rc, $(tail -1 "$t/o")"
"$Q7PRED" verify --oracles sem "${few[@]}" --quiet >"$t/o" 2>&1
[ $? -eq 1 ] && grep -q "^FAIL: no leaf was checked: 196 cases, 0 checks" "$t/o" && ok "--quiet says so too" \
    || bad "quiet: $(cat "$t/o")"
"$Q7PRED" merge "$t/none.json" --quiet >"$t/o" 2>&1
[ $? -eq 1 ] && grep -q "^FAIL: no leaf was checked" "$t/o" && ok "a merge that checked nothing fails" \
    || bad "merge none: $(cat "$t/o")"

# "--" everywhere
"$Q7PRED" list -- >/dev/null && ok "list --" || bad "list --"
usage "list: unexpected argument 'x'" -- list -- x
usage "list: unexpected argument '--json'" -- list -- --json
[ "$("$Q7PRED" call -- olt_1_1_16f_16f 0x3c00 0x7e00 | sed '1{/^in: /d}' | head -1)" = "result = 0x0" ] && ok "call --" || bad "call --"
"$Q7PRED" demo -- >/dev/null && ok "demo --" || bad "demo --"
usage "demo: unexpected argument 'x'" -- demo -- x
"$Q7PRED" verify "${few[@]}" --quiet -- >"$t/o" && grep -q "^PASS" "$t/o" && ok "verify --" || bad "verify --"
usage "verify: unexpected argument '--json' (verify takes no operands)" -- verify "${few[@]}" -- --json x
usage "bench: unexpected argument 'x' (bench takes no operands)" -- bench -- x
"$Q7PRED" verify "${few[@]}" --quiet --json "$t/-s.json" >/dev/null
(cd "$t" && "$Q7PRED" merge --quiet -- -s.json) >"$t/o" 2>&1 && grep -q "^PASS" "$t/o" \
    && ok "merge -- takes a report named -s.json" || bad "merge --: $(cat "$t/o")"
printf 'vb1 = 0x5\nprint vb1\n' >"$t/-p.q7"
(cd "$t" && "$Q7PRED" exec -- -p.q7) >"$t/o" 2>&1 && grep -q "vb1 = 0x0000000000000005" "$t/o" \
    && ok "exec -- runs a program named -p.q7" || bad "exec --: $(cat "$t/o")"
usage "exec: unknown option '-p.q7'" -- exec -p.q7
exit $fail
