#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred exec: every example against its hand-derived .expected output (also
# under the ASan build when there is one), the --json, --trace and --stats
# formats, the size limit at its boundary, and every parse error: its
# file:line:column message, exit 2, nothing run.
set -u
Q7PRED=${Q7PRED:-build/q7pred}
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRCDIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); }

# ---- examples
clis=("$Q7PRED")
# the ASan+UBSan CLI too, where the run has that tree (Q7ASAN_CLI, as the harness sets it)
asan_cli=${Q7ASAN_CLI-$SRCDIR/build/asan/q7pred}
[ -n "$asan_cli" ] && [ -x "$asan_cli" ] && [ "$Q7PRED" != "$asan_cli" ] && clis+=("$asan_cli")
# summary PROG: the summary line exec must end with on stderr, counted here
# from the program's text (a statement is a line with something before its
# comment; a set has '=', a print starts with print, an instruction is any
# other) and the registers of its --json (every register written)
summary() {
    local st ins other regs
    st=$(sed 's/#.*//' "$1" | grep -c '[^[:space:]]')
    other=$(sed 's/#.*//' "$1" | grep -cE '=|^[[:space:]]*print[[:space:]]')
    ins=$((st - other))
    regs=$("$Q7PRED" exec --json "$1" 2>/dev/null | grep -c '^  "')
    s() { [ "$1" -eq 1 ] || echo s; }
    echo "$st statement$(s $st): $ins instruction$(s $ins), $other set$(s $other) or print$(s $other); $regs register$(s $regs) written"
}
n_examples=0
for prog in examples/*.q7; do
    want=${prog%.q7}.expected
    [ -f "$want" ] || { fail "$prog has no $want"; continue; }
    n_examples=$((n_examples + 1))
    line=$(summary "$prog")
    for cli in "${clis[@]}"; do
        "$cli" exec "$prog" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ $rc -ne 0 ] || [ "$(cat "$tmp/err")" != "$line" ] || ! cmp -s "$tmp/out" "$want"; then
            fail "$cli exec $prog (rc $rc; want stderr '$line')"; diff "$tmp/out" "$want" | head -20; head -5 "$tmp/err"
        else ok; fi
    done
done
# the same counted by hand for one: 35 statements, 14 compares (7 fp16, 7
# fp32), 4 sets and 17 prints; v0-v3, vb0-vb6 and vb8-vb14 written
[ "$(summary examples/nan_split.q7)" = "35 statements: 14 instructions, 21 sets or prints; 18 registers written" ] && ok ||
    fail "nan_split's summary: $(summary examples/nan_split.q7)"
[ "$n_examples" -ge 6 ] || fail "only $n_examples examples"

# ---- --json: the final state of every register written, hand-derived
# from examples/predicated_merge.q7 (fp16 1.0 = 3c00, 2.0 = 4000, 1.5 = 3e00;
# fp32 1.0 = 3f800000, qnan = 7fc00000)
rep() { local s=""; for ((i = 0; i < $2; i++)); do s+=$1; done; printf '%s' "$s"; }
cat >"$tmp/want.json" <<EOF
{
  "v0": "0x$(rep 4000 16)$(rep 3c00 16)",
  "v1": "0x$(rep 3e00 32)",
  "v2": "0x$(rep 3f800000 12)$(rep 7fc00000 4)",
  "v3": "0x$(rep 3f800000 16)",
  "vb0": "0x00000000ffffffff",
  "vb1": "0x0000ffffaaaa5555",
  "vb2": "0x0123000089abffff",
  "vb3": "0x0123456789abcdef",
  "vb4": "0x0000000000000000",
  "vb5": "0x00000000ffffffff",
  "vb6": "0xffffffffffffffff",
  "vb7": "0x000000000a0a5f5f",
  "vb8": "0x11111111f018e1e1"
}
EOF
"$Q7PRED" exec examples/predicated_merge.q7 --json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/want.json"; then
    fail "--json (rc $rc)"; diff "$tmp/out" "$tmp/want.json"
else ok; fi
# with --json the print output goes to stderr, unchanged, and the summary after it
{ cat examples/predicated_merge.expected; summary examples/predicated_merge.q7; } >"$tmp/want.err"
if cmp -s "$tmp/err" "$tmp/want.err"; then ok; else fail "--json: prints not on stderr"; fi
if [ -n "${PYTHON:-}" ] && "$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"; then ok
else fail "--json output is not JSON"; fi
# movfsv writes all eight fs; an empty program writes nothing
printf 'v5 = 2nx8 0x80, 0*63\nmovfsv v5\n' >"$tmp/m.q7"
"$Q7PRED" exec "$tmp/m.q7" --json >"$tmp/out" 2>/dev/null
want=$(printf '{\n  "v5": "0x%s80",\n' "$(rep 00 63)"; for j in 0 1 2 3 4 5 6; do
    printf '  "fs%d": "0x0000000000000000",\n' $j; done; printf '  "fs7": "0x0000000000000001"\n}')
[ "$(cat "$tmp/out")" = "$want" ] && ok || { fail "--json after movfsv"; cat "$tmp/out"; }
printf '# nothing\n\n' >"$tmp/empty.q7"
[ "$("$Q7PRED" exec "$tmp/empty.q7" --json 2>/dev/null)" = "{}" ] && ok || fail "--json of an empty program"

# ---- --trace: each statement, the registers it changed (new, was)
cat >"$tmp/t.q7" <<'EOF'
vb1 = 0x00000000000000f0   # keep lanes 0-1, live lanes 2-3
v0 = nxf16 all 1.0
v1 = nxf16 all 2.0
oltnxf16_t vb2, v0, v1, vb1
oltnxf16_t vb2, v0, v1, vb3
print vb2
EOF
cat >"$tmp/want" <<EOF
trace $tmp/t.q7:1: vb1 = 0x00000000000000f0
  vb1 = 0x00000000000000f0 (was 0x0000000000000000)
trace $tmp/t.q7:2: v0 = nxf16 all 1.0
  v0 = 0x$(rep 3c00 32) (was 0x$(rep 0000 32))
trace $tmp/t.q7:3: v1 = nxf16 all 2.0
  v1 = 0x$(rep 4000 32) (was 0x$(rep 0000 32))
trace $tmp/t.q7:4: oltnxf16_t vb2, v0, v1, vb1
  vb2 = 0x00000000000000f0 (was 0x0000000000000000)
trace $tmp/t.q7:5: oltnxf16_t vb2, v0, v1, vb3
  (no register changed)
vb2 = 0x00000000000000f0
EOF
"$Q7PRED" exec --trace "$tmp/t.q7" >"$tmp/out" 2>"$tmp/err"
if [ $? -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/want"; then fail "--trace"; diff "$tmp/out" "$tmp/want"; else ok; fi
# the traced text is the statement from its first to its last token:
# no indent, comment, trailing blanks or CR
printf '\t  vb1 = 0x1\t# one\r\n   notb vb2,vb1#x\r\n\r\nv0 = nx16 all 1 \t \r\n' >"$tmp/crlf.q7"
cat >"$tmp/want" <<EOF
trace $tmp/crlf.q7:1: vb1 = 0x1
  vb1 = 0x0000000000000001 (was 0x0000000000000000)
trace $tmp/crlf.q7:2: notb vb2,vb1
  vb2 = 0xfffffffffffffffe (was 0x0000000000000000)
trace $tmp/crlf.q7:4: v0 = nx16 all 1
  v0 = 0x$(rep 0001 32) (was 0x$(rep 0000 32))
EOF
"$Q7PRED" exec --trace "$tmp/crlf.q7" >"$tmp/out" 2>"$tmp/err"
if [ $? -ne 0 ] || ! cmp -s "$tmp/out" "$tmp/want"; then fail "--trace text"; diff "$tmp/out" "$tmp/want"; else ok; fi
# stdin
"$Q7PRED" exec - <examples/borfs_reduce.q7 | cmp -s - examples/borfs_reduce.expected && ok || fail "exec - (stdin)"

# ---- --stats: on stderr, stdout unchanged; counts exact, times and rates
# positive. examples/nan_split.q7: 35 statements (21 prints), 14 instructions.
"$Q7PRED" exec --stats examples/nan_split.q7 >"$tmp/out" 2>"$tmp/err"
rc=$?
size=$(wc -c <examples/nan_split.q7 | tr -d ' ')
if [ $rc -eq 0 ] && cmp -s "$tmp/out" examples/nan_split.expected; then ok; else fail "--stats changed stdout (rc $rc)"; fi
stat_ok() { # label, extended regex of the rest of its line
    if grep -Eq "^  $1 +$2\$" "$tmp/err"; then ok; else fail "--stats: no '$1' line like '$2'"; cat "$tmp/err"; fi
}
num='[0-9]+(\.[0-9]+)?'
pos='(0*[1-9][0-9]*(\.[0-9]+)?|0*\.[0-9]*[1-9][0-9]*|0\.[0-9]*[1-9][0-9]*)'   # a number > 0
grep -q "^exec stats: examples/nan_split.q7\$" "$tmp/err" && ok || fail "--stats: no header"
stat_ok program "$size bytes, 35 statements, 14 instructions"
stat_ok parse "$pos s, $pos MB/s, $pos M statements/s"
stat_ok run "$pos s, $pos M instructions/s"
stat_ok decoded "$pos bytes peak, $num x the program"
[ "$(wc -l <"$tmp/err")" -eq 6 ] && ok || fail "--stats: $(wc -l <"$tmp/err") lines, want 5 and the summary"
[ "$(tail -n 1 "$tmp/err")" = "$(summary examples/nan_split.q7)" ] && ok || fail "--stats: the summary is not last"
# with --json, stdout is still pure JSON
"$Q7PRED" exec --stats --json examples/predicated_merge.q7 >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/out" "$tmp/want.json" && grep -q '^  run ' "$tmp/err" && ok || fail "--stats --json"

# ---- the size limit: 64 MiB = 67108864 bytes. Sparse files cost no disk;
# exactly the limit is read, parsed and run (a print, then one comment line
# of NULs); one byte more is refused unread from a path or a redirected
# stdin, and at the byte past the limit from a pipe.
limit=67108864
printf 'print vb0\n#' >"$tmp/limit.q7"
truncate -s $limit "$tmp/limit.q7"
cp "$tmp/limit.q7" "$tmp/over.q7"
truncate -s $((limit + 1)) "$tmp/over.q7"
[ "$("$Q7PRED" exec "$tmp/limit.q7" 2>"$tmp/err")" = "vb0 = 0x0000000000000000" ] &&
    [ "$(cat "$tmp/err")" = "1 statement: 0 instructions, 1 set or print; 0 registers written" ] && ok ||
    fail "a program of exactly the limit"
big_error() { # the name the message gives, then the command
    local name=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? want="q7pred: exec: '$name' is larger than the program size limit of 64 MiB ($limit bytes)"
    if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || [ "$(cat "$tmp/err")" != "$want" ]; then
        fail "over the limit ($*): rc $rc, '$(cat "$tmp/err")'"
    else ok; fi
}
big_error "$tmp/over.q7" "$Q7PRED" exec "$tmp/over.q7"
big_error "<stdin>" sh -c '"$1" exec - <"$2"' sh "$Q7PRED" "$tmp/over.q7"
big_error "<stdin>" sh -c 'cat "$2" | "$1" exec -' sh "$Q7PRED" "$tmp/over.q7"
rm -f "$tmp/limit.q7" "$tmp/over.q7"

# ---- parse errors: "q7pred: FILE:LINE:COL: message", exit 2, no output
# Each case: program text (printf format), then the expected location and
# message. The first line of every program prints, to show nothing ran.
check_error() {
    local text=$1 where=$2 msg=$3
    printf "print vb0\n$text" >"$tmp/e.q7"
    "$Q7PRED" exec "$tmp/e.q7" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    local want="q7pred: $tmp/e.q7:$where: $msg"
    if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || [ "$(cat "$tmp/err")" != "$want" ]; then
        fail "error case '$text' (rc $rc)"; echo "  got:  $(cat "$tmp/err")"; echo "  want: $want"
        [ -s "$tmp/out" ] && echo "  (stdout not empty: it ran)"
    else ok; fi
}
check_error 'oltnx16 vb0, v0, v1' 2:1 "unknown mnemonic 'oltnx16'; nearest: ltnx16, oltnxf16, lenx16"
check_error 'OLTNXF16T vb0, v0, v1' 2:1 "unknown mnemonic 'OLTNXF16T'; nearest: oltnxf16, oltnxf16_t, olenxf16"
check_error 'oltnxf16 vb0, v0' 2:17 "oltnxf16 expects 3 operands (vbD, vA, vB), got 2"
check_error 'oltnxf16 vb0, v0, v1, v2' 2:23 "oltnxf16 expects 3 operands (vbD, vA, vB), got 4"
check_error 'oltnxf16_t vb0, v0, v1' 2:23 "oltnxf16_t expects 4 operands (vbD, vA, vB, vbP), got 3"
check_error 'borfs2n fs0, vb0, vb1' 2:22 "borfs2n expects 9 operands (fsD, vb, vb, vb, vb, vb, vb, vb, vb), got 3"
check_error 'fs3ltu2nx8 v0' 2:14 "fs3ltu2nx8 expects 3 operands ([fsN], vA, vB), got 1"
check_error 'movfsv v0, v1' 2:12 "movfsv expects 1 operand (vA), got 2"
check_error 'oltnxf16 vb0, vb1, v2' 2:15 "oltnxf16 operand 2 (vA): expected a vector register v0-v31, got 'vb1'"
check_error 'oltnxf16 v0, v1, v2' 2:10 "oltnxf16 operand 1 (vbD): expected a vbool register vb0-vb15, got 'v0'"
check_error 'borfs2n vb0, vb0, vb1, vb2, vb3, vb4, vb5, vb6, vb7' 2:9 "borfs2n operand 1 (fsD): expected a FS register fs0-fs7, got 'vb0'"
check_error 'clsfynxf16 v0, 3' 2:16 "clsfynxf16 operand 2 (vA): expected a vector register v0-v31, got '3'"
check_error 'fs3ltu2nx8 fs2, v0, v1' 2:12 "fs3ltu2nx8 writes fs3, not fs2"
check_error 'extbinx16 vb0, v0, 16' 2:20 "extbinx16 operand 3 (BIT): bit index '16' is out of range (0-15)"
check_error 'extbi2nx8 vb0, v0, x' 2:20 "extbi2nx8 operand 3 (BIT): expected a bit index 0-7, got 'x'"
check_error 'injbinx16 v0, vb0, 8' 2:20 "injbinx16 operand 3 (BIT): bit index '8' is out of range (0-7: injbi_8_8_1_32 reaches bits 0-7 of a lane)"
check_error 'andb vb0 vb1, vb2' 2:10 "expected ',' between operands, got 'vb1'"
check_error 'andb vb0, vb1,' 2:15 "expected an operand after ','"
check_error 'andb vb0, , vb1' 2:11 "expected an operand, got ','"
check_error 'v32 = nx16 all 1' 2:1 "no register 'v32' (vector registers are v0-v31)"
check_error 'notb vb16, vb0' 2:6 "no register 'vb16' (vbool registers are vb0-vb15)"
check_error 'print fs8' 2:7 "no register 'fs8' (FS registers are fs0-fs7)"
check_error 'print v01' 2:7 "no register 'v01' (vector registers are v0-v31)"
check_error 'v0 nx16' 2:4 "expected '=' after 'v0'"
check_error 'v0 =' 2:5 "expected a value after '='"
check_error 'x = 1' 2:1 "expected a register (v0-v31, vb0-vb15, fs0-fs7) before '=', got 'x'"
check_error 'v0 = nx16 0x10000*32' 2:11 "'0x10000' is out of range for an integer nx16 lane (-32768..65535)"
check_error 'v0 = nx16 all -32769' 2:15 "'-32769' is out of range for an integer nx16 lane (-32768..65535)"
check_error 'v0 = 2nx8 all 256' 2:15 "'256' is out of range for an integer 2nx8 lane (-128..255)"
check_error 'v0 = n_2x32 all 99999999999999999999999' 2:17 "'99999999999999999999999' is out of range for an integer n_2x32 lane (-2147483648..4294967295)"
check_error 'v0 = nx16 all 1.5' 2:15 "expected an integer nx16 lane (-32768..65535), got '1.5'"
check_error 'v0 = nxf16 all 1e5' 2:16 "'1e5' is out of range for nxf16 (largest finite 65504); write inf"
check_error 'v0 = nxf16 all 65520' 2:16 "'65520' is out of range for nxf16 (largest finite 65504); write inf"
check_error 'v0 = n_2xf32 all 1e39' 2:18 "'1e39' is out of range for n_2xf32 (largest finite 3.4028235e38); write inf"
check_error 'v0 = nxf16 all 0x10000' 2:16 "raw bits '0x10000' do not fit a 16-bit nxf16 lane"
check_error 'v0 = nxf16 all one' 2:16 "expected an fp value for nxf16 (decimal, inf, -inf, qnan, snan or 0x raw bits), got 'one'"
check_error 'vb0 = nx16 all 4' 2:16 "'4' is out of range for a 2-bit nx16 vbool field (0..3)"
check_error 'vb0 = 0x10000000000000000' 2:7 "'0x10000000000000000' does not fit a 64-bit register (at most 0xffffffffffffffff)"
check_error 'fs1 = 18446744073709551616' 2:7 "'18446744073709551616' does not fit a 64-bit register (at most 0xffffffffffffffff)"
check_error 'vb0 = nx61' 2:7 "expected a lane format (2nx8, nx16, n_2x32, nxf16, n_2xf32) or a 64-bit value (0x hex, 0b binary or decimal), got 'nx61'"
check_error 'v0 = 0x1g' 2:9 "expected a hex digit, got 'g'"
check_error 'v0 = 12' 2:6 "a whole-vector value is 0x and 1 to 128 hex digits, got '12' (for lanes write a format first: v0 = nx16 all 1)"
check_error 'v0 = nx16 1, 2' 2:15 "too few lane values for nx16: 2 given, 32 lanes (write 'all VALUE' to broadcast one value)"
check_error 'v0 = 2nx8 1*64, 2' 2:17 "too many lane values for 2nx8: it has 64 lanes"
check_error 'v0 = n_2x32 1*16, 2*1' 2:19 "too many lane values for n_2x32: it has 16 lanes"
check_error 'v0 = 2nx8 1*65' 2:13 "expected a repeat count 1-64 after '*'"
check_error 'v0 = nx16 1 2' 2:13 "expected ',' between lane values, got '2'"
check_error 'v0 = nx16 1,' 2:13 "expected a lane value after ','"
check_error 'v0 = nx16' 2:10 "expected 32 lane values for nx16 (or 'all VALUE' to broadcast)"
check_error 'v0 = nx16 all' 2:14 "expected a value after 'all'"
check_error 'v0 = nx16 all 1, 2' 2:16 "unexpected ',' after the broadcast value"
check_error 'print' 2:6 "expected a register after 'print'"
check_error 'print v0 as' 2:12 "expected a lane format after 'as' (2nx8, nx16, n_2x32, nxf16, n_2xf32)"
check_error 'print v0 as nx8' 2:13 "unknown lane format 'nx8' (2nx8, nx16, n_2x32, nxf16, n_2xf32)"
check_error 'print v0 nx16' 2:10 "expected 'as FORMAT' or the end of the line after the register"
check_error 'print v0 as nx16 x' 2:18 "unexpected 'x' after the format"
check_error ', v0' 2:1 "expected a statement (an instruction, REG = VALUE or print REG), got ','"
check_error 'andb vb0, vb1, vb2 ; x' 2:20 "unexpected character ';'"
check_error 'andb\001 vb0' 2:5 "unexpected byte 0x01"
check_error '\n\n\n   ltnx16 vb0, v0, v1, v2' 5:24 "ltnx16 expects 3 operands (vbD, vA, vB), got 4"
check_error 'v0 = nxf16 all 1\r\nx' 3:1 "unknown mnemonic 'x'; nearest: orb, xorb, andb"

# ---- command-line errors: one line, exit 2
cli_error() {
    "$Q7PRED" exec "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ]; then
        fail "exec $* (rc $rc)"; cat "$tmp/err"
    else ok; fi
}
cli_error
cli_error --bogus examples/nan_split.q7
cli_error "$tmp/no-such-file.q7"
cli_error examples/nan_split.q7 examples/borfs_reduce.q7
cli_error "$tmp"
"$Q7PRED" exec --help | grep -q 'usage: q7pred exec \[--trace\] \[--json\] \[--stats\] \[--lib PATH \[--abi FILE\]' && ok || fail "exec --help"
"$Q7PRED" exec --help | grep -q -- '--stats' && ok || fail "exec --help: --stats"
"$Q7PRED" exec --help | grep -q '64 MiB (67108864 bytes)' && ok || fail "exec --help: the size limit"
# output that cannot be written is an error (exit 1, one line), not silence
if [ -w /dev/full ]; then
    "$Q7PRED" exec examples/nan_split.q7 >/dev/full 2>"$tmp/err"
    rc=$?
    [ $rc -eq 1 ] && grep -q 'cannot write the output' "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok ||
        fail "exec >/dev/full: rc $rc, stderr '$(cat "$tmp/err")'"
fi

# ---- never crash: mangled examples and random bytes give 0 or 2
i=0
for prog in examples/*.q7; do
    for cut in 7 40 133 301; do
        i=$((i + 1))
        head -c "$cut" "$prog" >"$tmp/cut.q7"
        tr 'a-f0-9,' 'b-g1-9x;' <"$prog" | head -c $((cut * 3)) >"$tmp/tr.q7"
        for f in "$tmp/cut.q7" "$tmp/tr.q7"; do
            "$Q7PRED" exec --trace --json "$f" >/dev/null 2>&1
            rc=$?
            [ $rc -eq 0 ] || [ $rc -eq 2 ] && ok || fail "exec on mangled $prog (cut $cut): rc $rc"
        done
    done
done
for seed in 1 2 3 4 5 6 7 8; do
    awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 2000; i++) printf "%c", int(rand() * 256) }' \
        >"$tmp/rnd.q7" 2>/dev/null
    "$Q7PRED" exec "$tmp/rnd.q7" >/dev/null 2>&1
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 2 ] && ok || fail "exec on random bytes (seed $seed): rc $rc"
done

echo "test_exec: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
