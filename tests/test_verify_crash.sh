#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Crash isolation through the CLI: a library that segfaults on one input of
# one leaf and hangs on one input of another (each input twice in the grid:
# the library reads only the low 16 bits). verify must name each with the
# exact input; a crash stops only its own case, so every other case of the
# leaf is checked, in this corpus and the next; it exits 1.
set -u
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }
lib=$BUILD/tests/verify_crashlib.so
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$Q7PRED" verify --lib "$lib" --oracles sem --corpus grid,fuzz --timeout 0.5 --no-progress \
    --leaf olt_1_1_16f_16f,un_1_1_16f_16f,lt_2_16_16 --by-leaf --json "$out/r.json" >"$out/out.txt" 2>"$out/err.txt"
rc=$?
cat "$out/out.txt"
check "exit 1 on crashes" '[ $rc -eq 1 ]'
check "segfault named with its input" \
    'grep -q "crashed (SIGSEGV) in olt_1_1_16f_16f at input (0x7e00,0x3c00) \[grid #442\]" "$out/out.txt"'
# the library stores through NULL: the fault address, within a page of 0, names xstate and its option
check "the fault address on the line after, naming xstate" \
    'grep -A1 "at input (0x7e00,0x3c00) \[grid #442\]" "$out/out.txt" | grep -q "^    fault address 0x0, within a page of 0: the leaf probably reads through xstate, which is NULL here (--xstate-size N"'
check "hang named with its input" \
    'grep -q "hung (killed after 0.5 s) in un_1_1_16f_16f at input (0x3c00,0x7c01) \[grid #291\]" "$out/out.txt"'
check "reproduction line for the crash" \
    'grep -q "q7pred call --raw --lib $lib olt_1_1_16f_16f 0x7e00 0x3c00" "$out/out.txt"'
# grid #442 and #457 ((0x7e00, 0x3c00) and (0x7e00, 0xffff3c00)) crash; the
# other 727 cases are checked
check "olt grid cell: every case checked but the two that crashed" \
    'grep -Eq "^olt_1_1_16f_16f +grid +729 +727 / 0, 2 crashed$" "$out/out.txt"'
check "un grid cell: every case checked but the four that hung" \
    'grep -Eq "^un_1_1_16f_16f +grid +729 +725 / 0, 4 crashed$" "$out/out.txt"'
check "the crashed leaf runs on in the next corpus" \
    'grep -Eq "^olt_1_1_16f_16f +fuzz +10000 +10000 / 0$" "$out/out.txt"'
check "the next leaf still ran and agrees" 'grep -Eq "^lt_2_16_16 +fuzz +15000 +15000 / 0$" "$out/out.txt"'
check "stderr is empty when not a terminal" '[ ! -s "$out/err.txt" ]'
check "JSON records every crash" \
    '[ "$(grep -c "\"kind\": \"signal\"" "$out/r.json")" -eq 2 ] && [ "$(grep -c "\"kind\": \"hang\"" "$out/r.json")" -eq 4 ]'
check "JSON cells and totals count the crashing cases" \
    '"$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); c={(u[\"leaf\"],u[\"corpus\"]):list(u[\"cells\"].values())[0] for u in d[\"units\"]}; assert d[\"totals\"][\"crashes\"]==6; assert c[(\"olt_1_1_16f_16f\",\"grid\")][\"crashes\"]==2 and c[(\"olt_1_1_16f_16f\",\"grid\")][\"state\"]==\"crashed\"; assert c[(\"un_1_1_16f_16f\",\"grid\")][\"checks\"]==725" "$out/r.json"'
# the printed line reproduces the crash as printed: the binary that ran is
# named by its path (q7pred call dies of the same SIGSEGV)
self=$(realpath "$Q7PRED")
line=$(sed -n 's/^    reproduce: //p' "$out/out.txt" | head -1)
(PATH=/usr/bin:/bin sh -c "$line" >/dev/null 2>&1); rc=$?
check "the reproduction line names the binary that ran" '[ "${line%% *}" = "$self" ]'
check "the reproduction line crashes the same way" '[ $rc -eq 139 ]'
# with --preload, the line preloads the same library (LD_PRELOAD, as global as --preload)
"$Q7PRED" verify --lib "$lib" --preload "$Q7LIB" --oracles sem --corpus grid --leaf olt_1_1_16f_16f \
    --no-progress >"$out/pre.txt" 2>&1
check "the reproduction line carries the preloads" \
    'grep -qF "reproduce: LD_PRELOAD=$Q7LIB $self call --raw --lib $lib olt_1_1_16f_16f 0x7e00 0x3c00" "$out/pre.txt"'
# the model's own library: everything agrees
"$Q7PRED" verify --lib "$Q7LIB" --oracles sem --corpus grid --quiet --no-progress >"$out/ok.txt"
check "the unmutated library exits 0" '[ $? -eq 0 ] && grep -q "^PASS" "$out/ok.txt"'
exit $fail
