#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove (docs/proofs.md): the machine code of a library proven equal
# to what each leaf's name requires, and the proof shown able to fail:
#   1. the library rebuilt with gcc -O3 -march=x86-64-v4 (BMI2, AVX-512)
#      and clang -O2 -march=x86-64-v3 (BMI2, AVX2) ($BUILD/prove/<variant>,
#      mk/prove_binary.mk): every leaf whose code, or a function it calls,
#      holds an instruction past x86-64's baseline (VEX, EVEX, opmask,
#      BMI: objdump's reading) proven-binary, one JSON row each;
#      with gcc -O0 and clang -O2 (x86-64), the leaves whose code they make
#      hardest (the movfsv/movvfs bit loops, a _t compare, a classify),
#      q7pred list --proofs reads the report;
#      the -v4 build's rows name the CPU features they assume (cpu_features)
#      (the default build: tests/test_prove_all.sh);
#   2. the translator's terms against native calls of the same libraries
#      (the default, gcc -O0 and clang -O2 builds whole; the -v3/-v4 ones,
#      where this CPU runs them, on their leaves past the baseline), and
#      against a mutant's on the fp compares (they must disagree);
#   3. the fp compares written with C float/_Float16 operators (comiss,
#      ucomiss, __extendhfsf2 in the code): proven;
#   4. planted bugs: each refuted or unproven naming its leaf, with the
#      counterexample replayed natively where there is one; the gcc-only
#      bug absent from the clang build, the PIC-only one from -fno-pic;
#   5. a library built from a wrong table row, and a wrong row handed to
#      the prover: refuted, naming the row;
#   6. --abi with the probe's report (another shape, another argument
#      order, another bit map), --timeout, SIGINT/SIGTERM, bad input.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone: without them a
# SKIP, but under CI=true (where .ci/run installs them) a failure.
# slow: four builds in part and the planted libraries proven from their bytes (about 90 s)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
T=$BUILD/tests/prove
prove_test_begin
count=$("$Q7PRED" list --json | "$PYTHON" -c 'import json, sys; print(json.load(sys.stdin)["count"])')
"$Q7PRED" prove --write-table "$tmp/table.json" || bad "--write-table"


# ---- 1. every leaf of two builds proven, the hardest of two more
# gcc -O0 and clang -O2 at x86-64: the leaves whose code they make hardest
# (the bit-plane loops, a _t compare, a classify); make prove-binary-matrix
# proves every leaf of every build
HARD="movfsv_64_64_64_64_64_64_64_64_512 movvfs_512_64_64_64_64_64_64_64_64 olt_1_2_16f_16f_2f_t clsfy_16f_16f"
prove_all() { # name library [leaf...]: those leaves (default: every one) proven-binary
    local out=$tmp/$1.out json=$tmp/$1.json rc=0 args=() n=$count l
    for l in "${@:3}"; do args+=(--leaf "$l"); done
    [ $# -le 2 ] || n=$(($# - 2))
    "$Q7PRED" prove --quiet --lib "$2" "${args[@]}" --json "$json" >"$out" 2>&1 || rc=$?
    if [ $rc -eq 0 ] && grep -qx "$n leaves: $n proven-binary, 0 refuted, 0 unproven, 0 absent" "$out" &&
       [ "$(statuses "$json" | grep -c ' proven-binary$')" = "$n" ]; then
        ok "$1: $(tail -n 1 "$out")"
    else
        bad "$1: exit $rc"; tail -n 5 "$out"; statuses "$json" 2>/dev/null | grep -v proven-binary | head
    fi
}
prove_all gcc-O0 "$BUILD/prove/gcc-O0/libq7pred.so" $HARD &
wait
# gcc -O3 -march=x86-64-v4 and clang -O2 -march=x86-64-v3: every leaf whose
# code, or a function it calls, holds an instruction past x86-64's baseline
# (VEX, EVEX, opmask, BMI); make prove-binary-matrix proves them whole
modern_leaves() { # lib: those leaves' names, from objdump's reading of the code
    objdump -d --no-show-raw-insn "$1" | "$PYTHON" -c '
import re, sys
fn, code, calls = None, {}, {}
for line in sys.stdin:
    m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
    if m:
        fn = m.group(2)
        code[fn], calls[fn] = False, set()
        continue
    parts = line.split("	")
    if fn is None or len(parts) < 2:
        continue
    insn = parts[1].split()
    if not insn:
        continue
    if re.match(r"(v|k[a-z]|andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx)", insn[0]):
        code[fn] = True
    m = re.search(r"<([^>+]+)>$", parts[1].strip())
    if insn[0].startswith(("call", "jmp")) and m:
        calls[fn].add(m.group(1))
def modern(f, seen):
    if f in seen or f not in code:
        return False
    seen.add(f)
    return code[f] or any(modern(g, seen) for g in calls[f])
print(" ".join(sorted(f[len("module__xdref_"):] for f in code if f.startswith("module__xdref_") and modern(f, set()))))'
}
v4_lib=$BUILD/prove/gcc-O3-v4/libq7pred.so
v4_leaves=$([ -f "$v4_lib" ] && modern_leaves "$v4_lib")
if [ -z "$v4_leaves" ]; then bad "no $v4_lib, or no leaf of it past the baseline (make check builds it: prove-binary-libs)"
else prove_all gcc-O3-v4 "$v4_lib" $v4_leaves & fi
clang_lib=$BUILD/prove/clang-O2/libq7pred.so
if [ -f "$clang_lib" ]; then prove_all clang-O2 "$clang_lib" $HARD
else bad "no $clang_lib (make check builds it: prove-binary-libs)"; fi
wait
v3_lib=$BUILD/prove/clang-O2-v3/libq7pred.so
v3_leaves=$([ -f "$v3_lib" ] && modern_leaves "$v3_lib")
if [ -z "$v3_leaves" ]; then bad "no $v3_lib, or no leaf of it past the baseline (make check builds it: prove-binary-libs)"
else prove_all clang-O2-v3 "$v3_lib" $v3_leaves; fi
objdump -d "$v4_lib" 2>/dev/null | grep -q '{%k[1-7]}\|zmm' && objdump -d "$v4_lib" | grep -q 'shlx\|shrx\|andn' &&
    objdump -d "$v3_lib" 2>/dev/null | grep -q 'shlx\|shrx\|andn' && objdump -d "$v3_lib" | grep -q 'ymm' &&
    ok "the -v4 build holds AVX-512 and BMI instructions, the -v3 build AVX2 and BMI" ||
    bad "the -march=x86-64-v3/v4 builds lack the instructions they are there for"
# the CPU features a proof assumes: AVX-512 and BMI2 for some -v4 leaf (none for the default
# build's: tests/test_prove_all.sh)
if grep -q '"cpu_features": "[^"]*avx512f' "$tmp/gcc-O3-v4.json" 2>/dev/null &&
   grep -q '"cpu_features": "[^"]*bmi2' "$tmp/gcc-O3-v4.json"; then
    ok "cpu_features: avx512f and bmi2 among the -v4 build's"
else bad "cpu_features: the -v4 build's are not what its code needs"; fi
cpu_has() { for f in "$@"; do grep -qw "$f" /proc/cpuinfo 2>/dev/null || return 1; done; }
native_libs=("$Q7LIB" "$BUILD/prove/gcc-O0/libq7pred.so" "$clang_lib")
v3_flags="avx avx2 bmi1 bmi2 f16c fma abm movbe"     # x86-64-v3, as /proc/cpuinfo names them
# the -v3/-v4 builds' other leaves hold only baseline instructions, whose models the three builds
# above exercise on every leaf
native_v3=$(cpu_has $v3_flags && echo yes)
native_v4=$(cpu_has $v3_flags avx512f avx512bw avx512cd avx512dq avx512vl && echo yes)
if "$Q7PRED" list --proofs "$tmp/gcc-O3-v4.json" --json | "$PYTHON" -c '
import json, sys
rows = json.load(sys.stdin)["leaves"]
want = set(sys.argv[1:])
sys.exit(0 if want and {r["suffix"] for r in rows if r.get("proof") == "proven-binary"} == want else 1)' $v4_leaves; then
    ok "q7pred list --proofs reads prove's report: proven-binary for the leaves proven, and no other"
else bad "list --proofs does not show proven-binary for exactly the leaves proven"; fi

# ---- 2. the translator against native calls
xlate() { PYTHONPATH=prover "$PYTHON" -m q7prove.binary.check_translator --table "$tmp/table.json" --cases 12 "$@"; }
xlate_lib() { # library [leaf...]: those leaves (default: every one) agree
    local lib=$1 l args=()
    for l in "${@:2}"; do args+=(--leaf "$l"); done
    if xlate --lib "$lib" "${args[@]}" >"$tmp/x.out" 2>&1; then ok "$(tail -n 1 "$tmp/x.out")"
    else bad "the translator disagrees with $lib"; tail -n 5 "$tmp/x.out"; fi
}
for lib in "${native_libs[@]}"; do [ -f "$lib" ] && xlate_lib "$lib"; done
[ -n "$native_v3" ] && [ -n "$v3_leaves" ] && xlate_lib "$v3_lib" $v3_leaves
[ -n "$native_v4" ] && [ -n "$v4_leaves" ] && xlate_lib "$v4_lib" $v4_leaves
# against a mutant whose NaN polarity is wrong: the fp compares, where it differs
mutant=$BUILD/mutants/nan_polarity.so
fp_leaves=$("$Q7PRED" list --json | "$PYTHON" -c '
import json, sys
print(" ".join(l["suffix"] for l in json.load(sys.stdin)["leaves"] if l["suffix"][:2] in ("oe", "ol", "un", "ue", "ul")))')
fp_args=(); for l in $fp_leaves; do fp_args+=(--leaf "$l"); done
if [ ! -f "$mutant" ]; then bad "no $mutant (make check builds the mutants)"
elif [ -z "$fp_leaves" ]; then bad "q7pred list names no fp compare"
elif xlate --lib "$Q7LIB" --native "$mutant" "${fp_args[@]}" >"$tmp/x.out" 2>&1; then
    bad "the translator's terms of $Q7LIB agree with the nan_polarity mutant's calls"
elif grep -q '^check-binary-translator: o\(eq\|lt\|le\)_' "$tmp/x.out"; then
    ok "the translator check fails against the nan_polarity mutant, naming an ordered leaf"
else bad "the check against the mutant failed without naming an ordered leaf"; tail -n 3 "$tmp/x.out"; fi

# ---- 3. compares on the float unit
fl=$T/float_compares.so
if objdump -d "$fl" | grep -q 'comiss' && objdump -d "$fl" | grep -q 'ucomiss' &&
   objdump -d "$fl" | grep -q 'call.*<__extendhfsf2>'; then
    ok "float_compares.so computes on the float unit (comiss, ucomiss, __extendhfsf2)"
else bad "float_compares.so has no comiss/ucomiss/__extendhfsf2: not the test it claims"; fi
"$Q7PRED" prove --quiet --lib "$fl" --json "$tmp/fl.json" >"$tmp/fl.out" 2>&1; rc=$?
fp=$("$Q7PRED" list --json | "$PYTHON" -c '
import json, sys
print(sum(l["family"] in ("fp-compare", "fp-tail") for l in json.load(sys.stdin)["leaves"]))')
proven=$(statuses "$tmp/fl.json" | grep -c ' proven-binary$')
if [ $rc -eq 0 ] && [ "$proven" = "$fp" ] && [ "$(statuses "$tmp/fl.json" | grep -vc ' absent$')" = "$fp" ]; then
    ok "float_compares.so: its $fp fp compares and tails proven-binary"
else bad "float_compares.so: exit $rc, $proven of $fp proven"; tail -n 3 "$tmp/fl.out"; fi

# ---- 4. planted bugs
"$Q7PRED" prove --lib "$T/planted_bugs.so" --json "$tmp/pl.json" --markdown "$tmp/pl.md" >"$tmp/pl.out" 2>&1; rc=$?
[ $rc -eq 1 ] && ok "planted bugs: exit 1" || bad "planted bugs: exit $rc, want 1"
verdict=$(grep -n '^\*\*[0-9]* leaves: ' "$tmp/pl.md" | head -n 1 | cut -d: -f1)
table=$(grep -n '^| leaf | status' "$tmp/pl.md" | head -n 1 | cut -d: -f1)
[ -n "$verdict" ] && [ -n "$table" ] && [ "$verdict" -lt "$table" ] &&
    ok "the markdown report gives its verdict before the table" || bad "markdown: verdict line $verdict, table line $table"
expect() { # leaf status reason-pattern
    local st reason
    st=$(member "$tmp/pl.json" "$1" status); reason=$(member "$tmp/pl.json" "$1" reason)
    if [ "$st" = "$2" ] && echo "$reason" | grep -q -- "$3"; then ok "planted $1: $st ($reason)"
    else bad "planted $1: $st ($reason), want $2 matching '$3'"; fi
}
expect olt_1_4_32f_32f refuted 'result differs from the spec'
expect lt_2_16_16 refuted 'writes result bytes 4..7, outside its 4 bytes'
expect andb_64_64_64 refuted 'writes A byte 4, an input'
expect eq_1_8_8 refuted 'returns with %rbx changed'
expect ltu_1_8_8 refuted 'reads the stack at entry %rsp-8, which nothing wrote'
expect leu_1_8_8 refuted 'result differs from the spec'
expect neq_1_8_8 refuted 'result differs from the spec'
expect fs0ltu_64_8_8 refuted 'result differs from the spec'
expect bitkillt_8_1 unproven 'unmodelled instruction cpuid at 0x'
expect extbi_1_8_32 unproven 'forked on the inputs .* trip count'
expect eq_2_16_16 proven-binary ''
expect bitkillf_16_2 proven-binary ''     # a .rodata table at a computed index
expect bitkillf_32_4 proven-binary ''     # a switch's jump table
cx() { echo "$(member "$tmp/pl.json" "$1" counterexample.A) $(member "$tmp/pl.json" "$1" counterexample.B)"; }
[ "$(cx olt_1_4_32f_32f)" = "0x3f800000 0x40000000" ] && ok "the wrong fp32 pair is the counterexample" ||
    bad "olt_1_4_32f_32f counterexample $(cx olt_1_4_32f_32f), want the planted pair"
[ "$(cx leu_1_8_8)" = "0x12345678 0x12345677" ] && ok "the gcc-only pair is the counterexample" ||
    bad "leu_1_8_8 counterexample $(cx leu_1_8_8)"
[ "$(cx fs0ltu_64_8_8)" = "0x12345677 0x12345678" ] && ok "the gcc-only bug reached through the PLT, at the swapped pair" ||
    bad "fs0ltu_64_8_8 counterexample $(cx fs0ltu_64_8_8)"
[ "$(cx neq_1_8_8)" = "0x7 0x7" ] && ok "the PIC-only pair is the counterexample" || bad "neq_1_8_8: $(cx neq_1_8_8)"
for leaf in olt_1_4_32f_32f lt_2_16_16 leu_1_8_8 neq_1_8_8 fs0ltu_64_8_8 andb_64_64_64 ltu_1_8_8; do
    if [ "$(member "$tmp/pl.json" "$leaf" replay)" = "the real call agrees with the prediction" ]; then
        ok "$leaf: replayed natively, the real call agrees with the prediction"
    else bad "$leaf: replay: $(member "$tmp/pl.json" "$leaf" replay)"; fi
done
[ "$(member "$tmp/pl.json" olt_1_4_32f_32f native.result)" = 0x0 ] && [ "$(member "$tmp/pl.json" olt_1_4_32f_32f expected.result)" = 0xf ] &&
    ok "olt_1_4_32f_32f: the real call answers 0x0 where the spec says 0xf" || bad "olt_1_4_32f_32f: native/expected"
[ "$(member "$tmp/pl.json" lt_2_16_16 native.result+4)" = 0x5a5a5a5a ] &&
    ok "lt_2_16_16: the real call's write past the result is seen, as predicted" || bad "lt_2_16_16: no native result+4"
grep -q 'THE TRANSLATOR IS WRONG' "$tmp/pl.out" && bad "a planted bug's replay disagrees with its prediction"
if [ -f "$T/planted_bugs_clang.so" ]; then
    "$Q7PRED" prove --quiet --lib "$T/planted_bugs_clang.so" --leaf leu_1_8_8 --leaf fs0ltu_64_8_8 --leaf eq_2_16_16 >"$tmp/c.out" 2>&1 &&
        ok "clang build: the gcc-only bug is not there (leu_1_8_8 and its PLT caller proven-binary)" || { bad "clang build of the planted bugs"; cat "$tmp/c.out"; }
else bad "no $T/planted_bugs_clang.so"; fi
"$Q7PRED" prove --quiet --lib "$T/planted_bugs_nopic.so" --leaf neq_1_8_8 >"$tmp/c.out" 2>&1 &&
    ok "-fno-pic build: the PIC-only bug is not there (neq_1_8_8 proven-binary)" || { bad "-fno-pic build"; cat "$tmp/c.out"; }

# ---- 5. a wrong table row
"$Q7PRED" prove --lib "$T/wrong_row.so" --leaf olt_1_4_32f_32f --leaf ole_1_4_32f_32f --json "$tmp/w.json" >"$tmp/w.out" 2>&1
if [ "$(member "$tmp/w.json" olt_1_4_32f_32f status)" = refuted ] &&
   [ "$(member "$tmp/w.json" olt_1_4_32f_32f counterexample.A)" = "$(member "$tmp/w.json" olt_1_4_32f_32f counterexample.B)" -o \
     -n "$(member "$tmp/w.json" olt_1_4_32f_32f counterexample.A)" ] &&
   [ "$(member "$tmp/w.json" ole_1_4_32f_32f status)" = proven-binary ]; then
    ok "a library built from the row olt_1_4_32f_32f -> q7_f32_le: refuted ($(member "$tmp/w.json" olt_1_4_32f_32f reason))"
else bad "the wrong-row library"; cat "$tmp/w.out"; fi
sed 's/\("leaf": "olt_1_4_32f_32f", .*\)q7_f32_lt(/\1q7_f32_le(/' "$tmp/table.json" >"$tmp/wrong-table.json"
PYTHONPATH=prover "$PYTHON" -m q7prove.binary --lib "$Q7LIB" --table "$tmp/wrong-table.json" --leaf olt_1_4_32f_32f >"$tmp/wt.out" 2>&1
if grep -q '"status": "refuted".*the leaf table.s row olt_1_4_32f_32f: semantics REP(q7_f32_le(A, B)), where the name and the spec give REP(q7_f32_lt(A, B))' "$tmp/wt.out"; then
    ok "a wrong row handed to the prover is refuted, naming the row"
else bad "the wrong table row was not found"; cat "$tmp/wt.out"; fi

# ---- 6. --abi, --timeout, SIGINT, bad input
P=$BUILD/tests/probe
if [ -f "$P/ord_result_4th.so" ] && [ -f "$P/movfsv_words.so" ]; then
    for v in ord_result_4th:olt_1_2_16f_16f movfsv_words:movfsv_64_64_64_64_64_64_64_64_512 \
             tail_pred_first:olt_1_2_16f_16f_2f_t ord_swapped:olt_1_1_16f_16f m2_swapped:andnotb_64_64_64; do
        lib=$P/${v%%:*}.so leaf=${v#*:}
        "$Q7PRED" probe --lib "$lib" --leaf "$leaf" --json "$tmp/probe.json" >/dev/null 2>&1
        a=$("$Q7PRED" prove --lib "$lib" --leaf "$leaf" | awk 'NR == 1 {print $1}')
        b=$("$Q7PRED" prove --lib "$lib" --leaf "$leaf" --abi "$tmp/probe.json" | awk 'NR == 1 {print $1}')
        [ "$a" = refuted ] && [ "$b" = proven-binary ] && ok "${v%%:*}: refuted on the table's ABI, proven on the probe's" ||
            bad "${v%%:*}: $a without --abi, $b with it"
    done
else bad "no probe test libraries in $P"; fi
"$Q7PRED" prove --lib "$Q7LIB" --leaf movfsv_64_64_64_64_64_64_64_64_512 --timeout 0.001 >"$tmp/t.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^unproven .*timeout after 0.001 s' "$tmp/t.out" && ok "--timeout: unproven, timeout" ||
    { bad "--timeout: exit $rc"; cat "$tmp/t.out"; }
# SIGINT and SIGTERM mid-run (from Python: a background job of this shell ignores SIGINT)
if "$PYTHON" - "$Q7PRED" "$BUILD/prove/gcc-O0/libq7pred.so" "$tmp" "$count" <<'PY'
import glob, json, os, select, signal, subprocess, sys, time
q7pred, lib, tmp, count = sys.argv[1:]
def marked(mark):   # the processes whose environment holds mark
    found = []
    for e in glob.glob('/proc/[0-9]*/environ'):
        try:
            with open(e, 'rb') as f:
                if mark in f.read().split(b'\0'):
                    found.append(e.split('/')[2])
        except OSError:
            pass
    return found
bad = 0
for sig, want in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
    js = os.path.join(tmp, 'int.json')
    if os.path.exists(js):
        os.remove(js)
    tag = '%d.%d' % (os.getpid(), sig)
    mark = ('Q7PRED_PROVE_TEST=' + tag).encode()
    p = subprocess.Popen([q7pred, 'prove', '--lib', lib, '--json', js], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, env=dict(os.environ, Q7PRED_PROVE_TEST=tag))
    # signalled once a leaf is proven (its line printed); 120 s only guards against a hang
    first = p.stdout.readline() if select.select([p.stdout], [], [], 120)[0] else ''
    t0 = time.monotonic()
    p.send_signal(sig)
    out, _ = p.communicate(timeout=120)
    out = first + out
    took = time.monotonic() - t0
    deadline = time.monotonic() + 60   # the prover's end may take a moment to be seen
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = marked(mark)
    doc = json.load(open(js)) if os.path.exists(js) else {}
    lines = out.splitlines()
    good = (p.returncode == want and lines and lines[-1].startswith('prove: interrupted (%s) after'
                                                                                    % sig.name)
            and not any(l.startswith(count + ' leaves:') for l in lines) and not left and doc.get('interrupted')
            and 0 < len(doc.get('leaves', [])) < int(count))
    print('%s: %s: exit %s in %.2f s, %d rows written, %d provers left'
          % ('ok' if good else 'FAIL', sig.name, p.returncode, took, len(doc.get('leaves', [])), len(left)))
    bad |= not good
sys.exit(bad)
PY
then :; else fail=1; fi
printf 'not an ELF file\n' >"$tmp/text.so"
cp "$Q7LIB" "$tmp/arm.so"; printf '\267\000' | dd of="$tmp/arm.so" bs=1 seek=18 conv=notrunc 2>/dev/null
usage() { # what pattern args...
    local what=$1 pat=$2; shift 2
    "$Q7PRED" prove "$@" >"$tmp/u.out" 2>&1; local rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/u.out")" = 1 ] && grep -q -- "$pat" "$tmp/u.out" && ok "$what: exit 2, one line" ||
        { bad "$what: exit $rc"; cat "$tmp/u.out"; }
}
usage "a file that is not ELF" "is not an ELF file" --lib "$tmp/text.so"
usage "an AArch64 library" "an ELF file for aarch64, not x86-64" --lib "$tmp/arm.so"
cp "$Q7LIB" "$tmp/e32.so"; printf '\001' | dd of="$tmp/e32.so" bs=1 seek=4 conv=notrunc 2>/dev/null
usage "a 32-bit ELF file" "32-bit little-endian ELF file; q7pred reads 64-bit" --lib "$tmp/e32.so"
# a report that cannot be written is found before the proof (one line: no leaf was run)
usage "a report in a missing directory" "cannot write JSON report\|cannot write report" --lib "$Q7LIB" --json "$tmp/none/r.json"
usage "two reports to one file" "both write" --lib "$Q7LIB" --json "$tmp/same" --markdown "$tmp/same"
usage "an object without .dynsym" "no dynamic symbol table" --lib "$BUILD/obj/src/lib/abi/xdref.o"
usage "a missing library" "No such file" --lib "$tmp/none.so"
usage "no --lib" "--lib PATH is required"
usage "an unknown leaf" "not a leaf of the table" --lib "$Q7LIB" --leaf nosuch
printf '#!/bin/sh\nexec %s -S "$@"\n' "$PYTHON" >"$tmp/nosite"; chmod +x "$tmp/nosite"
usage "an interpreter without z3" "the prover needs" --lib "$Q7LIB" --python "$tmp/nosite"
usage "an interpreter that does not exist" "cannot start the prover" --lib "$Q7LIB" --python "$tmp/none/python3"
exit $fail
