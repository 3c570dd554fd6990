#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# --xstate-size N: a library whose leaf reads through its state pointer.
# The library, built here, reads a mode word at xstate + 8 and counts its
# calls at xstate + 12 (a state carried from one call to the next would
# show), and answers wrong on A = 5. Shown natively first: with NULL it dies
# of SIGSEGV at address 0xc.
#   - call: the crash names the fault address, within a page of 0, xstate
#     and --xstate-size N (exit 139); with --xstate-size 16 the answer is
#     the spec's;
#   - verify: NULL crashes on every case, each record with the fault line;
#     with --xstate-size 16 every case is checked and only A = 5 differs; the
#     JSON's library column records 16, the reproduce line passes it and,
#     run, gives the library's wrong answer; report --html from that JSON
#     draws the same page; a resume with another size is refused;
#   - probe: NULL is a crash naming xstate; --xstate-size 16 confirms the
#     leaf and records 16, which verify --abi then passes, and a
#     --xstate-size other than the probe's is a usage error naming both.
set -u
. "$(dirname "$0")/support/check_lib.sh"
cd "$t"
cat >xs.c <<'EOF'
#include <stdint.h>
void module__xdref_ltu_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    volatile uint32_t *s = x;
    s[3] += 1;
    *r = (((a < b) ? 3u : 0u) ^ s[2] ^ (s[3] != 1)) & (a == 5 ? 0u : 3u);
}
EOF
${CC:-cc} -shared -fPIC -O2 -o xs.so xs.c || bad "cc xs.so"
{ "$PYTHON" -c 'import ctypes; f = ctypes.CDLL("./xs.so").module__xdref_ltu_2_16_16; r = ctypes.c_uint32()
f(None, ctypes.c_uint32(1), ctypes.c_uint32(2), ctypes.byref(r))'; } 2>/dev/null; rc=$?
check "natively, with xstate NULL, the leaf dies of SIGSEGV" '[ $rc = 139 ]'

# ---- call
"$Q7PRED" call --lib ./xs.so ltu_2_16_16 1 2 >out 2>err; rc=$?
check "call: exit 139, the fault address 0xc within a page of 0 names xstate and --xstate-size N" \
    '[ $rc = 139 ] && grep -q "crashed (SIGSEGV) in ltu_2_16_16 at input (0x1,0x2); fault address 0xc, within a page of 0: the leaf probably reads through xstate, which is NULL here (--xstate-size N passes" err'
out=$("$Q7PRED" call --lib ./xs.so --xstate-size 16 ltu_2_16_16 1 2 | grep '^result')
check "call --xstate-size 16: 1 < 2 is 0x3, the spec's" '[ "$out" = "result = 0x3" ]'
"$Q7PRED" call --xstate-size 16 ltu_2_16_16 1 2 >/dev/null 2>err; rc=$?
check "call --xstate-size without --lib: a usage error" '[ $rc = 2 ] && grep -q "without --lib" err'

# ---- verify
run=(verify --lib ./xs.so --leaf ltu_2_16_16 --oracles sem --corpus grid,fuzz --no-progress --max-report 2)
"$Q7PRED" "${run[@]}" --max-crashes 3 >null.txt; rc=$?
check "verify, xstate NULL: FAIL, the crash records with the fault line naming xstate" \
    '[ $rc = 1 ] && grep -A1 "crashed (SIGSEGV) in ltu_2_16_16" null.txt | grep -q "^    fault address 0xc, within a page of 0: the leaf probably reads through xstate"'
"$Q7PRED" "${run[@]}" --xstate-size 16 --json xs.json --html xs.html >xs.txt; rc=$?
"$PYTHON" - xs.json <<'PY' && ok "verify --xstate-size 16: every case checked, only A = 5 differs; the column records 16" || bad "verify --xstate-size 16"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["totals"]["crashes"] == 0 and d["totals"]["checks"] == d["totals"]["cases"], d["totals"]
lib = [c for c in d["oracles"] if c["kind"] == "lib"][0]
assert lib["xstate_size"] == 16, lib
assert d["mismatches"] and all(int(m["in"][0], 16) == 5 for m in d["mismatches"]), d["mismatches"]
PY
check "verify --xstate-size 16: exit 1" '[ $rc = 1 ]'
line=$(grep -m1 ' call --raw --lib ' xs.txt | sed 's/^ *reproduce: *//; s/^ *//')
check "the reproduce line passes --xstate-size 16: $line" 'printf "%s" "$line" | grep -q -- "--lib ./xs.so --xstate-size 16 ltu_2_16_16 0x5 "'
got=$(sh -c "$line" | grep '^result')
check "run, it gives the library's wrong answer (result = 0x0)" '[ "$got" = "result = 0x0" ]'
"$Q7PRED" report --quiet --html again.html xs.json >/dev/null
check "report --html from the JSON draws the same page" 'cmp -s xs.html again.html'
"$Q7PRED" "${run[@]}" --xstate-size 16 --checkpoint ck.json --quiet >/dev/null
"$Q7PRED" "${run[@]}" --xstate-size 32 --resume ck.json --quiet >/dev/null 2>err; rc=$?
check "a resume with another --xstate-size is refused" '[ $rc = 2 ] && grep -q "xstate-size" err'

# ---- probe, and --abi
"$Q7PRED" probe --lib ./xs.so --leaf ltu_2_16_16 >probe-null.txt; rc=$?
check "probe, xstate NULL: crashed, naming xstate" \
    '[ $rc = 1 ] && grep -q "^ltu_2_16_16 .*crashed .*fault address 0xc, within a page of 0: the leaf probably reads through xstate" probe-null.txt'
"$Q7PRED" probe --lib ./xs.so --leaf ltu_2_16_16 --xstate-size 16 --json p.json >probe.txt; rc=$?
check "probe --xstate-size 16: the leaf fits its table shape, the JSON records 16" \
    '"$PYTHON" -c "import json,sys; d=json.load(open(\"p.json\")); assert d[\"xstate_size\"] == 16 and d[\"leaves\"][0][\"found_shape\"] == \"BIN\", d"'
"$Q7PRED" "${run[@]}" --abi p.json --json abi.json --quiet >/dev/null
check "verify --abi takes the probe's 16 bytes" \
    '"$PYTHON" -c "import json; d=json.load(open(\"abi.json\")); assert [c for c in d[\"oracles\"] if c[\"kind\"] == \"lib\"][0][\"xstate_size\"] == 16 and d[\"totals\"][\"crashes\"] == 0"'
"$Q7PRED" "${run[@]}" --abi p.json --xstate-size 8 >/dev/null 2>err; rc=$?
check "verify --abi with another --xstate-size: exit 2, both named" \
    '[ $rc = 2 ] && grep -q "xstate-size 8 is not the xstate --abi .p.json. was probed with (a buffer of 16 bytes)" err'
exit $fail
