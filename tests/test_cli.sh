#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred list / call / demo: the happy paths with values from the spec and
# TABLES.md, and every bad-input case: exit 2, nothing on stdout, exactly
# one line on stderr naming the problem. Run against the CLI under test
# ($Q7PRED) and, when it has been built, the ASan+UBSan one too. The values
# are written out here; demo's output against the spec's own text is
# tests/test_cli_demo.sh.
set -u
. "$(dirname "$0")/support/spec_leaves.sh"

passed=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
pass() { passed=$((passed + 1)); }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# run CLI ARGS...: stdout in $tmp/out, stderr in $tmp/err, status in $rc
run() { "$CLI" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# expect_out EXPECTED ARGS...: exit 0, stdout exactly EXPECTED, no stderr
# (the `in:` line that echoes a call's fp and int values is left out: the
# echo has tests of its own, expect_in)
expect_out() {
    local want=$1; shift
    run "$@"
    if [ "$rc" -ne 0 ]; then fail "q7pred $* exited $rc: $(head -c 300 "$tmp/err")"; return; fi
    if [ "$(sed '1{/^in: /d}' "$tmp/out")" != "$want" ]; then
        fail "q7pred $*: stdout differs"; diff <(printf '%s\n' "$want") "$tmp/out" | head -20
        return
    fi
    if [ -s "$tmp/err" ]; then fail "q7pred $*: unexpected stderr: $(head -c 300 "$tmp/err")"; return; fi
    pass
}

# expect_usage REGEX ARGS...: exit 2, empty stdout, one stderr line matching REGEX
expect_usage() {
    local re=$1; shift
    run "$@"
    local lines; lines=$(wc -l < "$tmp/err")
    if [ "$rc" -ne 2 ]; then fail "q7pred $* exited $rc, want 2 ($(head -c 300 "$tmp/err"))"; return; fi
    if [ -s "$tmp/out" ]; then fail "q7pred $*: stdout not empty on error"; return; fi
    if [ "$lines" -ne 1 ]; then fail "q7pred $*: $lines stderr lines, want 1"; cat "$tmp/err"; return; fi
    if ! grep -Eq -- "$re" "$tmp/err"; then fail "q7pred $*: stderr '$(cat "$tmp/err")' !~ /$re/"; return; fi
    pass
}

# expect_ok ARGS...: exit 0 with some stdout (help texts)
expect_ok() {
    run "$@"
    if [ "$rc" -ne 0 ] || [ ! -s "$tmp/out" ]; then fail "q7pred $* exited $rc / empty stdout"; return; fi
    pass
}

MOVFSV=movfsv_64_64_64_64_64_64_64_64_512
MOVVFS=movvfs_512_64_64_64_64_64_64_64_64
BORFS=borfs_2n_64_64_64_64_64_64_64_64_64
BNORFS=bnorfs_2n_64_64_64_64_64_64_64_64_64
ZERO64='0x0000000000000000  words 0x00000000 0x00000000'

happy_paths() {
    # ---- demo runs (its output is checked against the spec in test_cli_demo.sh)
    expect_ok demo

    # ---- list
    run list
    if [ "$rc" -eq 0 ] && head -1 "$tmp/out" | grep -q "^$SPEC_LEAF_COUNT leaves" \
       && [ "$(grep -Ec '^  [a-z0-9_]+ +[A-Z0-9]+ ' "$tmp/out")" -eq "$SPEC_LEAF_COUNT" ]; then pass
    else fail "list: want $SPEC_LEAF_COUNT leaf rows and a '$SPEC_LEAF_COUNT leaves' header"; fi
    for fam in int-compare fp-compare fp-tail classify mask-logic bitkill fs-bank bit-plane bit-spread; do
        grep -q "^$fam: " "$tmp/out" && pass || fail "list: no family section $fam"
    done
    # a row shows shape, C arguments, widths, call operands, provenance, semantics
    if grep -Eq '^  olt_1_2_16f_16f +ORD +A, B, \*aux, \*result +2 +16 +A:16 B:16 +inferred +REP\(q7_f16_lt\(A, B\)\)$' "$tmp/out"
    then pass; else fail "list: olt_1_2_16f_16f row"; grep olt_1_2_16f_16f "$tmp/out"; fi
    run list --family bitkill
    n=$(spec_group BITKILL | wc -l)
    [ "$rc" -eq 0 ] && head -1 "$tmp/out" | grep -q "^$n leaves" && pass || fail "list --family bitkill: want $n"
    run list --family=fs-bank
    n=$(( $(spec_group FS_COMPARE | wc -l) + $(spec_group FS_REDUCE | wc -l) ))
    [ "$rc" -eq 0 ] && head -1 "$tmp/out" | grep -q "^$n leaves" && pass || fail "list --family=fs-bank: want $n"
    run list --json
    if [ "$rc" -eq 0 ] && "$PYTHON" - "$tmp/out" "${SPEC_LEAVES[@]}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
L = d["leaves"]
spec = sys.argv[2:]
assert d["count"] == len(spec) and len(L) == len(spec), d["count"]
assert {l["suffix"] for l in L} == set(spec)
for l in L:
    assert l["symbol"] == "module__xdref_" + l["suffix"], l
    assert l["provenance"] in ("observed", "inferred"), l
    assert l["semantics"] and l["arguments"] and l["inputs"] and l["outputs"], l
by = {l["suffix"]: l for l in L}
o = by["olt_1_2_16f_16f"]
assert (o["shape"], o["arguments"], o["field_bits"], o["operand_bits"], o["family"],
        o["provenance"]) == ("ORD", "A, B, *aux, *result", 2, 16, "fp-compare", "inferred"), o
assert [x["name"] for x in o["outputs"]] == ["result", "aux"], o
assert by["olt_1_1_16f_16f"]["provenance"] == "observed"
assert by["movvfs_512_64_64_64_64_64_64_64_64"]["provenance"] == "inferred"
assert [x["bits"] for x in by["bitkillt_16_2"]["inputs"]] == [2]
PY
    then pass; else fail "list --json: content"; fi
    run list --json --family classify
    [ "$rc" -eq 0 ] && "$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["count"]==2==len(d["leaves"])' "$tmp/out" \
        && pass || fail "list --json --family classify"

    # ---- call: values from the spec (§4.4 §4.5 §5.1 §6.4 §7.3 §7.4 §8.1)
    expect_out $'result = 0x0\naux    = 0x00000000' call olt_1_1_16f_16f 0x3c00 0x7e00
    expect_out $'result = 0x1\naux    = 0x00000000' call module__xdref_oeq_1_1_16f_16f 0x3c00 0x3c00
    expect_out 'result = 0x1' call un_1_1_16f_16f 0x3c00 0x7e00
    expect_out 'result = 0x3' call module__xdref_lt_2_16_16 0x8000 1
    expect_out 'result = 0x0' call ltu_2_16_16 32768 1
    expect_out $'result = 0xf\naux    = 0x00000000' call olt_1_4_32f_32f 0xc0000000 0x3f800000
    expect_out 'result = 0x60' call clsfy_16f_16f 0x7c01
    expect_out 'result = 0x20' call clsfy_16f_16f 0b111111000000000
    expect_out 'result = 0x84' call clsfy_16f_16f 0x1
    # exec's literals: values rounded to fp16/fp32 (IEEE 754 binary16 1.0 =
    # 0x3c00, 2.0 = 0x4000, -0.0 = 0x8000; binary32 1.0 = 0x3f800000), the
    # NaNs of docs/program-format.md (qnan 0x7e00, snan 0x7c01), negative
    # integers as two's complement in the lane; the same as their patterns
    same_as() { # PATTERN-ARGS -- LITERAL-ARGS: the same output
        local i=1; for a in "$@"; do [ "$a" = -- ] && break; i=$((i + 1)); done
        "$CLI" "${@:1:i-1}" --words >"$tmp/p.out" 2>&1; local r1=$?
        "$CLI" "${@:i+1}" --words >"$tmp/l.out" 2>&1; local r2=$?
        if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$tmp/p.out" "$tmp/l.out"; then pass
        else fail "call ${*:i+1} differs from call ${*:1:i-1}: $(cat "$tmp/l.out") vs $(cat "$tmp/p.out")"; fi
    }
    same_as call olt_1_1_16f_16f 0x3c00 0x4000 -- call olt_1_1_16f_16f 1.0 2
    same_as call olt_1_1_16f_16f 0x7e00 0x3c00 -- call olt_1_1_16f_16f qnan 1.0
    same_as call clsfy_16f_16f 0x7c01 -- call clsfy_16f_16f snan
    same_as call clsfy_16f_16f 0x8000 -- call clsfy_16f_16f -0.0
    same_as call clsfy_16f_16f 0x7c00 -- call clsfy_16f_16f inf
    same_as call clsfy_16f_16f 0xfc00 -- call clsfy_16f_16f -inf
    same_as call olt_1_4_32f_32f 0x3f800000 0x7fc00000 -- call olt_1_4_32f_32f 1 qnan
    same_as call lt_1_8_8 0xff 0 -- call lt_1_8_8 -1 0
    same_as call lt_2_16_16 0x8000 1 -- call lt_2_16_16 -32768 1
    # the echo: each value as its pattern and as exec reads it back
    expect_in() { # LINE ARGS...
        local want=$1; shift
        run "$@"
        if [ "$rc" -eq 0 ] && [ "$(head -n 1 "$tmp/out")" = "$want" ]; then pass
        else fail "q7pred $*: first line '$(head -n 1 "$tmp/out")', want '$want'"; fi
    }
    expect_in 'in: A = 0x3c00 (1.0), B = 0x7e00 (qnan)' call olt_1_1_16f_16f 1 qnan
    expect_in 'in: A = 0x8000 (-0.0)' call clsfy_16f_16f 0x8000
    expect_in 'in: A = 0x7f800001 (snan), B = 0x3f800000 (1.0)' call olt_1_4_32f_32f snan 1
    expect_in 'in: A = 0xff (255, or -1 signed), B = 0x01 (1)' call lt_1_8_8 -1 1
    run call andb_64_64_64 1 2
    [ "$rc" -eq 0 ] && ! grep -q '^in:' "$tmp/out" && pass || fail "call andb: an in: line for masks"
    expect_out 'result = 0x3' call oeq_1_2_16f_16f_2f_t 0x3c00 0x3c00 1
    expect_out 'result = 0x0' call oeq_1_2_16f_16f_2f_t 0x3c00 0x3c00 0
    expect_out 'result = 0xffff' call bitkillt_16_2 0
    expect_out 'result = 0x0000' call bitkillt_16_2 1
    expect_out 'result = 0xffff' call bitkillf_16_2 1
    expect_out 'out = 0x00f000f000f000f0  words 0x00f000f0 0x00f000f0' \
        call andb_64_64_64 0xf0f0f0f0f0f0f0f0 0x00ff00ff00ff00ff
    expect_out 'out = 0x00f000f000f000f0  words 0x00f000f0 0x00f000f0' \
        call andb_64_64_64 0xf0f0f0f0 0xf0f0f0f0 0x00ff00ff 0x00ff00ff
    expect_out 'out = 0xfff0fff0fff0fff0  words 0xfff0fff0 0xfff0fff0' \
        call ornotb_64_64_64 0xf0f0f0f0f0f0f0f0 0x00ff00ff00ff00ff
    expect_out 'out = 0x0f0f0f0f0f0f0f0f  words 0x0f0f0f0f 0x0f0f0f0f' call notb_64_64 0xf0f0f0f0f0f0f0f0
    expect_out 'result = 0x1' call fs3ltu_64_8_8 1 2
    expect_out 'result = 0x0' call fs7ltu_64_8_8 9 2
    expect_out 'out = 0x00000000000000ff  words 0x000000ff 0x00000000' call $BORFS 1 2 4 8 16 32 64 128
    expect_out 'out = 0x7fffffffffffff80  words 0xffffff80 0x7fffffff' \
        call $BNORFS 1 2 4 8 16 32 64 0x8000000000000000
    expect_out 'out = 0xffffffffffffffff  words 0xffffffff 0xffffffff' \
        call $BNORFS 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
    expect_out 'result = 0x3' call extbi_2_16_32 0b10110 1
    expect_out 'result = 0x0' call extbi_1_8_32 0b10110 3
    expect_out 'result = 0x08' call injbi_8_8_1_32 0x00 1 3
    expect_out 'result = 0xf7' call injbi_8_8_1_32 0xff 0 3
    local fs="FS0 = $ZERO64
FS1 = $ZERO64
FS2 = $ZERO64
FS3 = $ZERO64
FS4 = $ZERO64
FS5 = $ZERO64
FS6 = 0x0000000000000002  words 0x00000002 0x00000000
FS7 = 0x0000000000000001  words 0x00000001 0x00000000"
    expect_out "$fs" call $MOVFSV 0x4080
    expect_out "$fs" call $MOVFSV 0x4080 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
    expect_out "vec = 0x$(printf '0%.0s' $(seq 124))4080
      words 0x00004080$(printf ' 0x00000000%.0s' $(seq 15))" call $MOVVFS 0 0 0 0 0 0 2 1
    # the options
    expect_out '0x00000001 0x00000000' call --words olt_1_1_16f_16f 0xc000 0x3c00
    expect_out 'result = 0x0' call --raw ltu_1_8_8 0x100 1
    expect_out 'result = 0x3' call --lib "$LIB" lt_2_16_16 0x8000 1
    expect_out 'result = 0x3' call -- lt_2_16_16 0x8000 1
    expect_out '0x00000003' call lt_2_16_16 0x8000 1 --words

    # ---- help and version
    expect_ok --help
    expect_ok list --help
    expect_ok call --help
    expect_ok demo --help
    run --version
    [ "$rc" -eq 0 ] && grep -Eq '^q7pred [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" && pass || fail "--version"
}

bad_inputs() {
    # unknown leaves, with nearest names; the known-absent ones say why
    expect_usage "unknown leaf 'foo' \(nearest: " call foo 1 2
    expect_usage "unknown leaf 'olt_1_1_16f_16' \(nearest: olt_1_1_16f_16f" call olt_1_1_16f_16 1 2
    expect_usage "unknown leaf 'module__xdref_nope'" call module__xdref_nope 1 2
    expect_usage "no leaf 'oeq_1_4_16f_16f': the fp16 compares have no _1_4 form.*nearest: " \
        call oeq_1_4_16f_16f 1 2
    expect_usage "no leaf 'module__xdref_ult_1_4_16f_16f': .*no _1_4 form" call module__xdref_ult_1_4_16f_16f 1 2
    expect_usage "no leaf 'olt_1_1_16f_16f_2f_t': there is no _1_1 predicated tail" \
        call olt_1_1_16f_16f_2f_t 1 2 1
    expect_usage "no _1_1 predicated tail" call ueq_1_1_32f_32f_4f_t 1 2 1
    expect_usage "no leaf 'bitkillf_8_1': bitkillf ships only 16_1, 16_2 and 32_4" call bitkillf_8_1 1
    expect_usage "no leaf 'bitkillt_16_1': bitkillt ships only 8_1, 16_2 and 32_4" call bitkillt_16_1 1
    # wrong argument counts say how many the shape takes
    expect_usage "olt_1_1_16f_16f takes 2 arguments \(A B\), got 1" call olt_1_1_16f_16f 1
    expect_usage "lt_2_16_16 takes 2 arguments \(A B\), got 3" call lt_2_16_16 1 2 3
    expect_usage "clsfy_16f_16f takes 1 argument \(A\), got 0" call clsfy_16f_16f
    expect_usage "olt_1_2_16f_16f_2f_t takes 3 arguments \(A B C\), got 2" call olt_1_2_16f_16f_2f_t 1 2
    expect_usage "andb_64_64_64 takes 2 arguments \(A B, 64-bit masks\) or 4 .*got 3" call andb_64_64_64 1 2 3
    expect_usage "$BORFS takes 8 arguments .* or 16 .*got 1" call $BORFS 1
    expect_usage "$MOVFSV takes 1 argument \(vec, a 512-bit vector in hex\) or 16 .*got 2" call $MOVFSV 1 2
    # values that are not numbers
    expect_usage "argument 1 \(A\) 'zz': expected an integer nx16 lane \(-32768..65535\), got 'zz'" call lt_2_16_16 zz 1
    expect_usage "argument 2 \(B\) '-1x': expected an integer nx16 lane" call lt_2_16_16 1 -1x
    expect_usage "argument 1 \(A\) '0x': expected an integer nx16 lane" call lt_2_16_16 0x 1
    expect_usage "argument 1 \(A\) '1.5': expected an integer nx16 lane" call lt_2_16_16 1.5 1
    expect_usage "argument 1 \(A\) '': expected an integer nx16 lane" call lt_2_16_16 '' 1
    expect_usage "argument 1 \(A\) '0b102': expected an integer nx16 lane" call lt_2_16_16 0b102 1
    expect_usage "argument 1 \(A\) ' 1': expected an integer nx16 lane" call lt_2_16_16 ' 1' 1
    expect_usage "argument 1 \(A\) 'nan1': expected an fp value for nxf16" call olt_1_1_16f_16f nan1 1
    expect_usage "argument 2 \(B, bit index\) '-1' is not a number" call extbi_1_8_32 1 -1
    expect_usage "argument 1 \(vec\) '12' is not a hex number" call $MOVFSV 12
    expect_usage "argument 3 \(B word 0\) 'x' is not a number" call andb_64_64_64 1 2 x 4
    # values wider than their operand: named, with the width, never masked
    expect_usage "argument 1 \(A\) '0x10000': raw bits '0x10000' do not fit a 16-bit nxf16 lane" \
        call olt_1_1_16f_16f 0x10000 1
    expect_usage "argument 1 \(A\) '1e9': '1e9' is out of range for nxf16 \(largest finite 65504\); write inf" \
        call olt_1_1_16f_16f 1e9 1
    expect_usage "argument 2 \(B\) '256': '256' is out of range for an integer 2nx8 lane \(-128..255\)" call lt_1_8_8 1 256
    expect_usage "argument 1 \(A\) '0x100000000': '0x100000000' is out of range for an integer n_2x32 lane" \
        call ltu_4_32_32 0x100000000 1
    expect_usage "argument 1 \(A, predicate\) '4' is wider than 2 bits" call bitkillt_16_2 4
    expect_usage "argument 1 \(A, predicate\) '2' is wider than 1 bit," call bitkillt_8_1 2
    expect_usage "argument 3 \(C, predicate\) '0x10' is wider than 4 bits" call olt_1_4_32f_32f_4f_t 1 2 0x10
    expect_usage "argument 2 \(B, bit index\) '8' is wider than 3 bits" call extbi_1_8_32 1 8
    expect_usage "argument 1 \(A\) '2' is wider than 1 bit" call notb1_1_1 2
    expect_usage "argument 1 \(A, base\) '0x100' is wider than 8 bits" call injbi_8_8_1_32 0x100 1 1
    expect_usage "argument 2 \(B\) '0x100000000' is wider than the 32-bit argument register" \
        call --raw lt_2_16_16 1 0x100000000
    expect_usage "argument 1 \(A\) '0x10000000000000000' is wider than a 64-bit mask" \
        call andb_64_64_64 0x10000000000000000 1
    expect_usage "argument 4 \(B word 1\) '0x100000000' is wider than a 32-bit word" \
        call andb_64_64_64 1 2 3 0x100000000
    expect_usage "argument 1 \(vec\) '0x1(0){128}' is wider than 512 bits" call $MOVFSV "0x1$(printf '0%.0s' $(seq 128))"
    # options and subcommands
    expect_usage "call: missing LEAF" call
    expect_usage "call: missing LEAF" call --raw
    expect_usage "lt_2_16_16 takes 2 arguments \(A B\), got 40" call lt_2_16_16 $(seq 40)
    expect_usage "call: too many arguments" call lt_2_16_16 $(seq 70)
    expect_usage "argument 1 \(A\) '--raw': expected an integer nx16 lane" call -- lt_2_16_16 --raw 1
    expect_usage "call: unknown option '--bogus'" call --bogus lt_1_8_8 1 2
    expect_usage "call: unknown option '-x'" call -x lt_1_8_8 1 2
    expect_usage "call: unknown leaf '-x'" call -- -x 1 2
    expect_usage "call: --lib needs a library path" call --lib
    expect_usage "call: cannot load library '/nonexistent/lib.so': No such file or directory" \
        call --lib /nonexistent/lib.so lt_1_8_8 1 2
    # a library of the ABI that lacks this leaf (the crash-test library has four)
    local partial; partial="$(dirname "$Q7LIB")/tests/verify_crashlib.so"
    expect_usage "call: --lib '.*verify_crashlib.so' has no symbol module__xdref_lt_1_8_8" call --lib "$partial" lt_1_8_8 1 2
    # a name without a slash is a file in the current directory, not a loader search
    expect_usage "call: cannot load library 'libc.so.6': No such file or directory" call --lib libc.so.6 lt_1_8_8 1 2
    if (cd "$(dirname "$Q7LIB")" && "$CLI" call --lib libq7pred.so lt_2_16_16 0x8000 1) 2>&1 | grep -qx 'result = 0x3'; then
        pass
    else
        fail "q7pred call --lib libq7pred.so (a file in the current directory) did not load it"
    fi
    expect_usage "list: unknown family 'nope' \(families: int-compare, " list --family nope
    expect_usage "list: --family needs a family name" list --family
    expect_usage "list: --proofs needs a file" list --proofs
    expect_usage "list: unexpected argument 'extra'" list extra
    expect_usage "demo: unexpected argument 'x'" demo x
    expect_usage "unknown command 'bogus'" bogus
    # output that cannot be written is a failure, not a silent success
    if [ -w /dev/full ]; then
        "$CLI" list >/dev/full 2>"$tmp/err"; rc=$?
        if [ "$rc" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'cannot write the output' "$tmp/err"
        then pass; else fail "list >/dev/full: exit $rc, stderr '$(cat "$tmp/err")'"; fi
    fi
}

LIB=${Q7LIB:-$SRCDIR/build/libq7pred.so}
clis=("$Q7PRED")
# the ASan+UBSan CLI too, where the run has that tree (the harness says,
# Q7ASAN_CLI; empty under make check-fast, which does not build it)
asan_cli=${Q7ASAN_CLI-$SRCDIR/build/asan/q7pred}
[ -n "$asan_cli" ] && [ -x "$asan_cli" ] && [ "$asan_cli" != "$Q7PRED" ] && clis+=("$asan_cli")
for CLI in "${clis[@]}"; do
    before=$failed
    happy_paths
    bad_inputs
    echo "$CLI: $((failed - before)) failures"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
