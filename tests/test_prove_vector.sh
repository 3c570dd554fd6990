#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slow: each library here is proven from its machine code with z3 and cvc5 (about a minute in all)
# The vector level proven from the gcc-built machine code
# (prover/q7prove/binary/vector.py, docs/proofs.md):
#   1. the obligations' derivation from each mnemonic agrees with every row
#      of include/q7pred_vecops.def (kind, lane format, leaf);
#   2. the library as built: q7v_ltn_2x32 proven on every path, its
#      dispatch checked over every feature set (no feature set reaches a
#      kernel the CPU cannot run) and each path reached;
#   3. bugs planted in one kernel of a library rebuilt here, each refuted
#      on that path with a counterexample that a native call (ctypes,
#      Q7PRED_VEC forcing the path) shows wrong against the spec's rules
#      computed in Python (tests/prove/vec_replay.py, itself first checked
#      against the correct library on random registers):
#        a. AVX-512: the last lane of every 16-bit compare cleared;
#        b. AVX2: the _t merge's live bit read one bit off (pred >> 1);
#        c. AVX-512: the table row of ltnx16 sends it to lenx16's kernel;
#        d. AVX-512, only in gcc's build (#if __GNUC__ && !__clang__): one
#           lane of the 32-bit compares wrong for one input pair; the same
#           source built by clang is proven;
#   4. the dispatch's own row: the AVX-512 path chosen without AVX-512BW
#      refuted by the dispatch check, naming the feature set (no native
#      replay: this CPU has BW);
#   5. a first call that writes to the library's code or its RELRO data,
#      reads near NULL, reads it where PATH is set, sends itself SIGSEGV by
#      raw syscalls, or finds in_force set by a constructor (a SIGSEGV
#      natively, shown by a ctypes child; every path right): unproven, the
#      dispatch's emulated run failing where the loaded library would;
#   6. a stripped library: unproven, naming .symtab.
# Needs /usr/bin/python3 with z3, capstone, unicorn, cvc5, gcc (clang for d).
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
BUILD=${BUILD:-build}
prove_test_begin
need_module unicorn python3-unicorn
[ -f "$BUILD/obj/src/lib/vec/kernels_avx512.o" ] || { echo "FAIL: $BUILD/obj is not built (make)"; exit 1; }

# 1. the derivation against the table
PYTHONPATH=prover "$PYTHON" - <<'EOF' || bad "the mnemonic derivation and q7pred_vecops.def disagree"
from q7prove.binary import vecspec
rows = vecspec.table_rows('cc', '.')
assert len(rows) > 60, rows
wrong = [(r, vecspec.derive(r[0]) and vecspec.derive(r[0]).row()) for r in rows
         if vecspec.derive(r[0]) is None or vecspec.derive(r[0]).row() != tuple(r)]
for r, d in wrong:
    print('row %s, derived %s' % (r, d))
assert not wrong
assert vecspec.derive('ltnxf16_t') is None and vecspec.derive('ueqnx16') is None   # no such instructions
print('ok: the derivation of %d mnemonics agrees with q7pred_vecops.def' % len(rows))
EOF

prove() { # lib out paths functions...
    local lib=$1 out=$2 paths=$3; shift 3
    local args=()
    for f in "$@"; do args+=(--function "$f"); done
    PYTHONPATH=prover "$PYTHON" -m q7prove.binary.vector --lib "$lib" --loader "$Q7PRED" --paths "$paths" \
        --timeout 60 "${args[@]}" > "$out" 2> "$out.err" || bad "the prover failed on $lib: $(tail -2 "$out.err")"
}
field() { # out function key  (a top-level key, or counterexample as JSON)
    "$PYTHON" -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("function") == sys.argv[2]:
        v = r.get(sys.argv[3])
        print(json.dumps(v) if isinstance(v, (dict, list)) else ("" if v is None else v))' "$1" "$2" "$3"
}

# 2. the correct library
prove "$Q7LIB" "$tmp/good.json" avx512,avx2,portable,reference q7v_ltn_2x32
st=$(field "$tmp/good.json" q7v_ltn_2x32 status)
[ "$st" = proven-binary ] && ok "q7v_ltn_2x32 proven on every path and its dispatch" \
    || bad "q7v_ltn_2x32 of the library: $st ($(field "$tmp/good.json" q7v_ltn_2x32 reason))"
"$PYTHON" - "$tmp/good.json" <<'EOF' || bad "the dispatch summary is not what the feature sets give"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if '"function"' in l][0]
d = r['dispatch']
# every path is reached by some feature set or Q7PRED_VEC, and nothing is wrong
assert set(d['reaches']) == {'avx512', 'avx2', 'portable', 'reference'}, d
assert 'wrong' not in d and 'unresolved' not in d, d
assert d['cases'] > 1000, d
print('ok: the dispatch reaches every path over %d cases' % d['cases'])
EOF
for f in q7v_ltnx16 q7v_eqnx16 q7v_oeqnxf16_t q7v_ltn_2x32; do
    for p in avx512 avx2; do
        Q7PRED_VEC=$p "$PYTHON" tests/prove/vec_replay.py "$Q7LIB" $f random >/dev/null \
            || bad "tests/prove/vec_replay.py's rules and the library disagree on $f ($p)"
    done
done

# 3. planted bugs: a kernel file copied, patched and built as the library's
# own is, then linked with the library's other objects
objs=$(ls "$BUILD"/obj/src/lib/{platform,model,abi,batch,vec}/*.o)
CFLAGS_LIB="-std=c11 -O2 -fPIC -fvisibility=hidden -D_GNU_SOURCE -Iinclude -Isrc/lib -Isrc/tools -Isrc/lib/vec"
plant() { # name file(kernels_avx512.c|kernels_avx2.c) compiler sed-script [instantiate-sed]
    local name=$1 file=$2 cc=$3 script=$4 inst=${5:-}
    mkdir -p "$tmp/$name"
    sed -e "$script" "src/lib/vec/$file" > "$tmp/$name/$file"
    if [ -n "$inst" ]; then sed -e "$inst" src/lib/vec/instantiate.h > "$tmp/$name/instantiate.h"; fi
    cmp -s "src/lib/vec/$file" "$tmp/$name/$file" && [ -z "$inst" ] && bad "$name: the patch changed nothing"
    "$cc" $CFLAGS_LIB -c "$tmp/$name/$file" -o "$tmp/$name/k.o" 2> "$tmp/$name/cc.err" \
        || { bad "$name: cannot build ($(head -3 "$tmp/$name/cc.err"))"; return; }
    gcc -shared -o "$tmp/$name/lib.so" $(echo "$objs" | grep -v "/${file%.c}.o$") "$tmp/$name/k.o" -ldl -lpthread -lm \
        || bad "$name: cannot link"
}
refuted() { # name path function
    local name=$1 path=$2 fn=$3 out="$tmp/$1/prove.json"
    prove "$tmp/$name/lib.so" "$out" "$path" "$fn"
    local st cex
    st=$(field "$out" "$fn" status)
    if [ "$st" != refuted ]; then bad "$name: $fn is $st, not refuted ($(field "$out" "$fn" reason))"; return; fi
    cex=$(field "$out" "$fn" counterexample)
    if Q7PRED_VEC=$path "$PYTHON" tests/prove/vec_replay.py "$tmp/$name/lib.so" "$fn" "$cex" > "$tmp/$name/replay"; then
        ok "$name: $fn refuted on $path; natively $(cat "$tmp/$name/replay")"
    else
        bad "$name: the counterexample does not replay ($(cat "$tmp/$name/replay")): $cex"
    fi
}

plant last_lane kernels_avx512.c gcc \
    's/^    return fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);/    q7_vbool r = fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);\n    return row.fmt == Q7_NX16 ? r \& ~(3ull << 62) : r;/'
refuted last_lane avx512 q7v_eqnx16

plant tail_off_by_one kernels_avx2.c gcc \
    's/return q7v_tail_merge(k_CMP(row, a, b), old, pred, q7v_fmt_bytes(row.fmt));/return q7v_tail_merge(k_CMP(row, a, b), old, pred >> 1, q7v_fmt_bytes(row.fmt));/'
refuted tail_off_by_one avx2 q7v_oeqnxf16_t

plant wrong_row kernels_avx512.c gcc 's/^#define Q7V_TABLE q7v_avx512_kernels$/&\n#define Q7V_PLANT_ROW/' \
    '/^const q7v_kernel Q7V_TABLE/,$ s/^#include "q7pred_vecops.def"$/&\n#ifdef Q7V_PLANT_ROW\n[Q7V_OP_ltnx16] = { .CMP = kernel_lenx16 },\n#endif/'
refuted wrong_row avx512 q7v_ltnx16

gcc_only='s/^    return fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);/    q7_vbool r = fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);\n#if defined(__GNUC__) \&\& !defined(__clang__)\n    if (w == 4 \&\& a->u32[5] == 0x00c0ffeeu \&\& b->u32[5] == 0x00decadeu) r ^= 0xfull << 20;\n#endif\n    return r;/'
plant gcc_only kernels_avx512.c gcc "$gcc_only"
refuted gcc_only avx512 q7v_ltn_2x32
cex=$(field "$tmp/gcc_only/prove.json" q7v_ltn_2x32 counterexample)
"$PYTHON" -c '
import json, sys
c = json.loads(sys.argv[1])
lane = lambda v: (int(v, 16) >> 160) & 0xffffffff
assert (lane(c["a"]), lane(c["b"])) == (0xc0ffee, 0xdecade), c' "$cex" \
    && ok "gcc_only: the counterexample is the planted pair in lane 5" || bad "gcc_only: counterexample $cex"
if command -v "${CLANG:-clang}" >/dev/null; then
    plant clang_same kernels_avx512.c "${CLANG:-clang}" "$gcc_only"
    prove "$tmp/clang_same/lib.so" "$tmp/clang_same/prove.json" avx512 q7v_ltn_2x32
    st=$("$PYTHON" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if "\"function\"" in l][0]
print(r["paths"][0]["status"])' "$tmp/clang_same/prove.json")
    [ "$st" = proven-binary ] && ok "clang's build of the same source: q7v_ltn_2x32 proven on avx512" \
        || bad "clang's build of the gcc-only bug: $st"
else
    [ "${CI:-}" = true ] && bad "clang missing under CI"
    echo "note: clang missing, the clang half of d not run"
fi
# 4. the dispatch's own rows: the AVX-512 path chosen without checking BW
# (paths[] in vec.c): a CPU with AVX-512F but not BW reaches kernels that
# need it. Refuted by the dispatch check with that feature set (this CPU
# has BW, so no native call can show it: the emulated run is the evidence).
# vec.c copied, patched by a sed script and built as the library's own,
# linked with the library's other objects into $tmp/<name>/lib.so
vec_plant() { # name sed-script
    mkdir -p "$tmp/$1"
    sed "$2" src/lib/vec/vec.c > "$tmp/$1/vec.c"
    if cmp -s src/lib/vec/vec.c "$tmp/$1/vec.c"; then bad "$1: the patch changed nothing"; return 1; fi
    gcc $CFLAGS_LIB -c "$tmp/$1/vec.c" -o "$tmp/$1/k.o" 2>"$tmp/$1/cc.err" &&
        gcc -shared -Wl,-z,relro -o "$tmp/$1/lib.so" $(echo "$objs" | grep -v "/vec/vec.o$") "$tmp/$1/k.o" \
            -ldl -lpthread -lm || { bad "$1: cannot build ($(head -3 "$tmp/$1/cc.err"))"; return 1; }
}
if vec_plant needs_bw 's/\[Q7V_PATH_AVX512\] = { "avx512", NULL, Q7_CPU_AVX512 | /[Q7V_PATH_AVX512] = { "avx512", NULL, Q7_CPU_AVX512F | /'
then
    prove "$tmp/needs_bw/lib.so" "$tmp/needs_bw/prove.json" avx512,avx2,portable,reference q7v_eq2nx8
    st=$(field "$tmp/needs_bw/prove.json" q7v_eq2nx8 status)
    why=$(field "$tmp/needs_bw/prove.json" q7v_eq2nx8 reason)
    case "$st:$why" in
    refuted:*avx512f*"reaches the avx512 kernel"*"needs"*avx512bw*) ok "needs_bw: q7v_eq2nx8 refuted by the dispatch (${why:0:160}...)";;
    *) bad "needs_bw: q7v_eq2nx8 is $st ($why)";;
    esac
fi

# 5. a first call that faults natively while every path proof (in_force
# set) is right: the dispatch check's emulator must fault where the process
# does. The selection code writes one byte into the library's code, or
# rewrites a RELRO word with its own value (the pages protected as the
# loader leaves them), or reads address 0x10 (the library loaded away from
# 0), or reads it only where PATH is set (getenv answers only Q7PRED_VEC,
# the variable the grid chooses), or sends itself SIGSEGV by raw syscalls
# (unicorn runs syscall as a no-op); a constructor stores a bad in_force (the
# constructors run, per feature set, before the first call, as the loader
# runs them).
# Each: the native first call dies with SIGSEGV (a ctypes child), and
# q7v_notb is unproven, naming the fault.
first_call_plant() { # name sed-script reason-pattern
    local name=$1 want=$3
    vec_plant "$name" "$2" || return
    ("$PYTHON" -c '
import ctypes, sys
buf = [ctypes.create_string_buffer(256) for _ in range(3)]
ctypes.CDLL(sys.argv[1]).q7v_notb(*buf)' "$tmp/$name/lib.so") 2>/dev/null   # the subshell's own report of the signal too
    rc=$?
    [ $rc -ge 128 ] || { bad "$name: the native first call did not die (exit $rc)"; return; }
    prove "$tmp/$name/lib.so" "$tmp/$name/prove.json" avx512,avx2,portable,reference q7v_notb
    st=$(field "$tmp/$name/prove.json" q7v_notb status); why=$(field "$tmp/$name/prove.json" q7v_notb reason)
    case "$st:$why" in
    unproven:*"dispatch:"*$want*) ok "$name: the native first call dies (exit $rc); unproven (${why:0:150}...)";;
    *) bad "$name: q7v_notb is $st ($why)";;
    esac
}
after_first='/^    if (k) return k;$/a\'
first_call_plant text_write "$after_first"'
    *(volatile unsigned char *)(uintptr_t)\&q7v_path_kernels = 0xc3;' 'faults at*WRITE_PROT'
first_call_plant relro_write "$after_first"'
    *(const q7v_kernel *volatile *)(uintptr_t)\&path_tables[0] = path_tables[0];' 'faults at*WRITE_PROT'
first_call_plant null_read "$after_first"'
    { static volatile uintptr_t low = 0x10; (void)*(volatile unsigned char *)low; }' 'faults at*UNMAPPED'
first_call_plant getenv_path "$after_first"'
    { extern char *getenv(const char *); static volatile uintptr_t low = 0x10; if (getenv("PATH")) (void)*(volatile unsigned char *)low; }' \
    "reads the environment variable 'PATH'"
first_call_plant raw_syscall "$after_first"'
    { long pid; __asm__ volatile("syscall" : "=a"(pid) : "a"(39L) : "rcx", "r11", "memory"); __asm__ volatile("syscall" : : "a"(62L), "D"(pid), "S"(11L) : "rcx", "r11", "memory"); }' \
    'runs syscall at'
first_call_plant ctor_in_force '/^static _Atomic(const q7v_kernel \*) in_force;$/a\
__attribute__((constructor)) static void set_in_force(void) { atomic_store(\&in_force, (const q7v_kernel *)1); }' \
    'faults at*READ_UNMAPPED'

# 6. a stripped library: the tables are not found, unproven naming .symtab
strip --strip-all -o "$tmp/stripped.so" "$Q7LIB"
prove "$tmp/stripped.so" "$tmp/stripped.json" avx512 q7v_notb
st=$(field "$tmp/stripped.json" q7v_notb status); why=$(field "$tmp/stripped.json" q7v_notb reason)
case "$st:$why" in
unproven:*symtab*) ok "a stripped library: unproven ($why)";;
*) bad "a stripped library: $st ($why)";;
esac
exit $fail
