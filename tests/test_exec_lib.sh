#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred exec --lib PATH: a vector program on another library's leaves.
#   - every example on build/libq7pred.so prints its hand-derived .expected
#     output, and --compare finds every statement the same;
#   - a library with a planted NaN bug (oeq TRUE on NaN, built here): --compare
#     names the first oeq statement, the register's model value as derived
#     by hand, the library's, and the lane that differs; exit 1;
#   - a library whose leaf crashes: the run stops at that statement with the
#     crash and its input; exit 1; a leaf the library lacks: named;
#   - xstate: a leaf that reads through xstate crashes with NULL (the fault
#     address near 0 names --xstate-size), runs right with --xstate-size 16,
#     and takes the size from a probe made with it (--abi);
#   - the options' mistakes are usage errors (exit 2).
set -u
. "$(dirname "$0")/support/check_lib.sh"
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRCDIR"
CC=${CC:-cc}

for prog in examples/*.q7; do
    got=$("$Q7PRED" exec --lib "$Q7LIB" "$prog" 2>/dev/null)
    check "exec --lib libq7pred.so $prog prints its .expected" '[ "$got" = "$(cat "${prog%.q7}.expected")" ]'
    out=$("$Q7PRED" exec --lib "$Q7LIB" --compare "$prog" 2>/dev/null); rc=$?
    check "exec --compare $prog: every statement agrees, exit 0" '[ $rc = 0 ] && printf "%s" "$out" | grep -q "all [0-9]* statements agree"'
done

# ---- a planted bug: the ordered fp16 equality TRUE when an operand is a NaN
cat >"$t/nanbug.c" <<'EOF'
#include <stdint.h>
static int nan16(uint32_t x) { return (x & 0x7c00) == 0x7c00 && (x & 0x3ff); }
static int eq16(uint32_t a, uint32_t b)
{
    if (nan16(a) || nan16(b)) return 1;                       /* the bug: ordered must be FALSE */
    if (((a | b) & 0x7fff) == 0) return 1;                    /* +0 == -0 */
    return (a & 0xffff) == (b & 0xffff);
}
void module__xdref_oeq_1_2_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *r)
{
    (void)x;
    *aux = 0;
    *r = eq16(a, b) ? 3 : 0;
}
EOF
$CC -shared -fPIC -O2 -o "$t/nanbug.so" "$t/nanbug.c" || bad "cc nanbug.so"
# natively wrong first: the call says qnan == 1.0 is TRUE
native=$("$Q7PRED" call --lib "$t/nanbug.so" oeq_1_2_16f_16f qnan 1.0 | grep '^result')
check "the NaN bug is real: call --lib gives result = 0x3 for (qnan, 1.0)" '[ "$native" = "result = 0x3" ]'
cat >"$t/nan.q7" <<'EOF'
v0 = nxf16 qnan, 1.0*31
v1 = nxf16 all 1.0
vb5 = 0x1234
oeqnxf16 vb0, v0, v1
print vb0
EOF
out=$("$Q7PRED" exec --lib "$t/nanbug.so" --compare "$t/nan.q7" 2>"$t/err"); rc=$?
# by hand: lane 0 (qnan, 1.0) is FALSE (field 0), lanes 1-31 (1.0 == 1.0) TRUE (field 3): the
# model's vb0 is all ones but bits 0-1; the library's lane 0 is 3 too
check "--compare: exit 1 on the NaN bug" '[ $rc = 1 ]'
check "--compare names the first statement that differs (line 4)" \
    'printf "%s\n" "$out" | grep -q "differs from the model first at $t/nan.q7:4: oeqnxf16 vb0, v0, v1"'
check "--compare shows the model's vb0 (0x...fffc) and the library's (all ones)" \
    'printf "%s\n" "$out" | grep -q "vb0   model   0xfffffffffffffffc" && printf "%s\n" "$out" | grep -q "library 0xffffffffffffffff"'
check "--compare names lane 0 as the one that differs" 'printf "%s\n" "$out" | grep -q "nxf16 that differ: 0 (1 of 32)"'
check "--compare stops there: the print after it does not run" '! printf "%s\n" "$out" | grep -q "^vb0 = "'

# ---- a crash, and a leaf the library lacks
cat >"$t/crash.c" <<'EOF'
#include <stdint.h>
void module__xdref_ltu_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)x;
    if (a == 7) *(volatile uint32_t *)(uintptr_t)0x40000 = 1;   /* a wild store */
    *r = a < b ? 3 : 0;
}
EOF
$CC -shared -fPIC -O2 -o "$t/crash.so" "$t/crash.c" || bad "cc crash.so"
"$Q7PRED" call --lib "$t/crash.so" ltu_2_16_16 7 1 >/dev/null 2>&1; rc=$?
check "the crash is real: call --lib dies of SIGSEGV (exit 139)" '[ $rc = 139 ]'
printf 'v0 = nx16 1, 7, 3*30\nv1 = nx16 all 2\nprint v0\nltunx16 vb0, v0, v1\nprint vb0\n' >"$t/crash.q7"
out=$("$Q7PRED" exec --lib "$t/crash.so" "$t/crash.q7" 2>"$t/err"); rc=$?
check "a crash stops the run at its statement: exit 1" '[ $rc = 1 ]'
check "the message names the statement, the crash and the lane's input (0x7,0x2)" \
    'grep -q "crash.q7:4: ltunx16 vb0, v0, v1: --lib .*crashed (SIGSEGV) in ltu_2_16_16 at input (0x7,0x2); fault address 0x40000" "$t/err"'
check "the statements before it ran, none after" 'printf "%s\n" "$out" | grep -q "^v0 = " && ! printf "%s\n" "$out" | grep -q "^vb0"'
printf 'v0 = nx16 all 1\nltnx16 vb0, v0, v0\n' >"$t/lt.q7"
"$Q7PRED" exec --lib "$t/crash.so" "$t/lt.q7" >/dev/null 2>"$t/err"; rc=$?
check "a leaf the library lacks is named: exit 1" \
    '[ $rc = 1 ] && grep -q "does not export module__xdref_lt_2_16_16" "$t/err"'

# ---- xstate
cat >"$t/xs.c" <<'EOF'
#include <stdint.h>
/* reads a mode word at xstate + 8 (right when it is 0) and keeps a count at
 * xstate + 12: a state that carried over from call to call would show */
void module__xdref_ltu_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    volatile uint32_t *s = x;
    s[3] += 1;
    *r = ((a < b) ? 3u : 0u) ^ s[2] ^ (s[3] != 1);
}
EOF
$CC -shared -fPIC -O2 -o "$t/xs.so" "$t/xs.c" || bad "cc xs.so"
printf 'v0 = nx16 1, 5*31\nv1 = nx16 all 2\nltunx16 vb0, v0, v1\nprint vb0\n' >"$t/xs.q7"
"$Q7PRED" exec --lib "$t/xs.so" "$t/xs.q7" >/dev/null 2>"$t/err"; rc=$?
check "xstate NULL: the leaf crashes, the fault address 0xc (s[3]) names xstate and --xstate-size" \
    '[ $rc = 1 ] && grep -q "fault address 0xc, within a page of 0: the leaf probably reads through xstate.*--xstate-size N" "$t/err"'
out=$("$Q7PRED" exec --lib "$t/xs.so" --xstate-size 16 "$t/xs.q7" 2>/dev/null)
# by hand: lane 0 (1 < 2) TRUE, lanes 1-31 (5 < 2) FALSE: vb0 = 0x3
check "--xstate-size 16: a zeroed buffer for every call, lane 0 only TRUE (vb0 = 0x3)" \
    '[ "$out" = "vb0 = 0x0000000000000003" ]'
"$Q7PRED" probe --lib "$t/xs.so" --leaf ltu_2_16_16 --xstate-size 16 --json "$t/probe.json" >/dev/null
out=$("$Q7PRED" exec --lib "$t/xs.so" --abi "$t/probe.json" "$t/xs.q7" 2>/dev/null)
check "--abi of a probe made with --xstate-size 16 passes 16 bytes" '[ "$out" = "vb0 = 0x0000000000000003" ]'
"$Q7PRED" exec --lib "$t/xs.so" --abi "$t/probe.json" --xstate-size 8 "$t/xs.q7" >/dev/null 2>"$t/err"; rc=$?
check "--xstate-size other than the probe's: exit 2, both named" \
    '[ $rc = 2 ] && grep -q "xstate-size 8 is not the xstate --abi .* was probed with (a buffer of 16 bytes)" "$t/err"'

# ---- usage errors
for args in "--compare examples/nan_split.q7" "--abi $t/probe.json examples/nan_split.q7" \
            "--xstate-size 16 examples/nan_split.q7" "--lib $t/none.so examples/nan_split.q7" \
            "--lib $Q7LIB --xstate-size 0 examples/nan_split.q7" "--lib $Q7LIB --compare --trace examples/nan_split.q7" \
            "--lib $Q7LIB --timeout -1 examples/nan_split.q7"; do
    # shellcheck disable=SC2086
    "$Q7PRED" exec $args >/dev/null 2>"$t/err"; rc=$?
    check "exec $args: a usage error, one line" '[ $rc = 2 ] && [ "$(wc -l <"$t/err")" = 1 ]'
done
exit $fail
