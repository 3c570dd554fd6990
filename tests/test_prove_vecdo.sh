#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slow: five libraries rebuilt here, a few of their functions proven from the machine code (about 12 s CPU)
# The vector level's calls by op, q7v_do_* (prover/q7prove/binary/vecdo.py,
# docs/proofs.md); the default build's are proven whole in
# tests/test_prove_all.sh:
#   1. the prover's enum q7v_kind values and struct q7v_op's layout are
#      those of <q7pred_vec.h> as the compiler reads it; the dispatch
#      check's test of a clean tail call into the kernel can fail;
#   2. bugs planted in src/lib/vec/vec.c, built as the library's own and
#      linked with its other objects:
#      a. q7v_do_cmp_t passes a and b to the kernel swapped: refuted on a
#         row, with a counterexample a native call shows wrong against the
#         spec's rules (tests/prove/vec_replay.py);
#      b. q7v_do_cmp returns 0 for one row: refuted on that row, replayed;
#      c. q7v_do_clsfy runs the kernel of any row whose op says CLSFY (the
#         table's own kind of the row not checked): never proven, and the
#         case named is an op that is no row of its kind;
#      d. q7v_ltnx16 sends only some inputs to a kernel wrong for the others
#         (right itself: proven), q7v_do_cmp all of them: its row cannot
#         stand on q7v_ltnx16's proof, so it runs on into the kernel and is
#         refuted, the counterexample shown natively.
# Needs /usr/bin/python3 with z3, capstone, unicorn, cvc5, gcc.
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
BUILD=${BUILD:-build}
prove_test_begin
need_module unicorn python3-unicorn
[ -f "$BUILD/obj/src/lib/vec/vec.o" ] || { echo "FAIL: $BUILD/obj is not built (make)"; exit 1; }

# 1. the header as the compiler reads it
cat > "$tmp/layout.c" <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include "q7pred_vec.h"
int main(void)
{
    printf("layout %zu %zu %zu %zu\n", sizeof(q7v_op), offsetof(q7v_op, id), offsetof(q7v_op, mnemonic),
           offsetof(q7v_op, kind));
#define VKIND(k) printf("kind %s %d\n", #k, (int)Q7V_##k);
#include "q7pred_veckinds.def"
#undef VKIND
    return 0;
}
EOF
if gcc -std=c11 -Iinclude -o "$tmp/layout" "$tmp/layout.c" && "$tmp/layout" > "$tmp/layout.txt"; then
    PYTHONPATH=prover "$PYTHON" - "$tmp/layout.txt" <<'EOF' && ok "enum q7v_kind and struct q7v_op as the prover has them" \
        || bad "the prover's q7v_op layout or kind codes differ from the header's"
import sys
from q7prove.binary import vecdo
lines = [l.split() for l in open(sys.argv[1])]
layout = [int(x) for x in lines[0][1:]]
kinds = {l[1]: int(l[2]) for l in lines[1:]}
assert layout == [vecdo.OP_SIZE, vecdo.OP_ID, vecdo.OP_MNEMONIC, vecdo.OP_KIND], layout
assert kinds == vecdo.KIND_CODE, (kinds, vecdo.KIND_CODE)
EOF
else bad "cannot build the layout probe"; fi

# the dispatch check's clean tail call (vecdispatch.Emulator): q7v_ltnx16 on
# a CPU with every feature enters its kernel with a and b in rdi and rsi,
# and the check says so, and says it is not when told they are swapped
PYTHONPATH=prover "$PYTHON" - "$Q7LIB" <<'EOF' && ok "the emulated call's kernel entry is checked as a clean tail call" \
    || bad "the dispatch check's clean tail call"
import sys
from q7prove.elf import image as elf_image
from q7prove.binary import vecdispatch, vecdo
from q7prove.binary.vecrun import Tables
image = elf_image.Image(sys.argv[1], sys.argv[1])
em, tables = vecdispatch.emulator(image), Tables(image)
row = [r for r in vecdo.table_rows(image) if r.mnemonic == 'ltnx16'][0]
# the emulator's memory holds the process's addresses (the library at vecdispatch.BASE); its stops are the file's
stops = {int.from_bytes(em.read(vecdispatch.BASE + tables.table(p) + 8 * row.id, 8), 'little') - vecdispatch.BASE
         for p in ('avx512', 'avx2', 'portable', 'reference')}
fs = ('Intel', 0xe7, frozenset(vecdispatch.GRID))
entry = image.by_name['q7v_ltnx16'].value
assert em.run(entry, fs, {}, stops, kernel_args=[('rdi', 64), ('rsi', 64)]) in stops and em.unclean == [], em.unclean
assert em.run(entry, fs, {}, stops, kernel_args=[('rsi', 64), ('rdi', 64)]) in stops and em.unclean == ['an argument']
EOF

prove() { # lib out function rows paths
    PYTHONPATH=prover "$PYTHON" -m q7prove.binary.vecdo --lib "$1" --loader "$Q7PRED" --function "$3" --rows "$4" \
        --paths "$5" --no-dispatch --timeout 60 > "$2" 2> "$2.err" || bad "the prover failed on $1: $(tail -2 "$2.err")"
}
field() { # out key  (a top-level key, or JSON)
    "$PYTHON" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if "\"function\"" in l][0]
v = r.get(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list)) else ("" if v is None else v))' "$1" "$2"
}

objs=$(ls "$BUILD"/obj/src/lib/{platform,model,abi,batch,vec}/*.o)
CFLAGS_LIB="-std=c11 -O2 -fPIC -fvisibility=hidden -D_GNU_SOURCE -Iinclude -Isrc/lib -Isrc/tools -Isrc/lib/vec"
plant() { # name sed-script-for-vec.c [sed-script-for-kernels_avx512.c]
    local f keep=$objs built=
    mkdir -p "$tmp/$1"
    for f in vec kernels_avx512; do
        [ $f = vec ] && script=$2 || script=${3:-}
        [ -n "$script" ] || continue
        sed -e "$script" src/lib/vec/$f.c > "$tmp/$1/$f.c"
        cmp -s src/lib/vec/$f.c "$tmp/$1/$f.c" && bad "$1: the patch of $f.c changed nothing"
        gcc $CFLAGS_LIB -c "$tmp/$1/$f.c" -o "$tmp/$1/$f.o" 2> "$tmp/$1/cc.err" \
            || { bad "$1: cannot build $f.c ($(head -3 "$tmp/$1/cc.err"))"; return 1; }
        keep=$(echo "$keep" | grep -v "/vec/$f.o$"); built="$built $tmp/$1/$f.o"
    done
    gcc -shared -o "$tmp/$1/lib.so" $keep $built -ldl -lpthread -lm || { bad "$1: cannot link"; return 1; }
}
refuted() { # name function row path
    local out="$tmp/$1/prove.json" st cex
    prove "$tmp/$1/lib.so" "$out" "$2" "$3" "$4"
    st=$(field "$out" status)
    if [ "$st" != refuted ]; then bad "$1: $2 is $st, not refuted ($(field "$out" reason))"; return; fi
    cex=$(field "$out" counterexample)
    if Q7PRED_VEC=$4 "$PYTHON" tests/prove/vec_replay.py "$tmp/$1/lib.so" "$2" "$cex" > "$tmp/$1/replay"; then
        ok "$1: $2 refuted on $3 ($4); natively $(cat "$tmp/$1/replay")"
    else
        bad "$1: the counterexample does not replay ($(cat "$tmp/$1/replay")): $cex"
    fi
}

plant swapped 's/return is(op, Q7V_CMP_T) ? K(op).CMP_T(old, a, b, pred) : 0;/return is(op, Q7V_CMP_T) ? K(op).CMP_T(old, b, a, pred) : 0;/' \
    && refuted swapped q7v_do_cmp_t oltn_2xf32_t avx2

plant one_row 's/return is(op, Q7V_CMP) ? K(op).CMP(a, b) : 0;/return is(op, Q7V_CMP) \&\& op->id != Q7V_OP_ltnx16 ? K(op).CMP(a, b) : 0;/' \
    && refuted one_row q7v_do_cmp ltnx16 avx512

if plant no_table_kind 's/    if (is(op, Q7V_CLSFY)) K(op).CLSFY(r, a);/    if (op \&\& op->id < Q7V_OP_COUNT \&\& op->kind == Q7V_CLSFY) K(op).CLSFY(r, a);/'; then
    out="$tmp/no_table_kind/prove.json"
    prove "$tmp/no_table_kind/lib.so" "$out" q7v_do_clsfy clsfynxf16 avx512
    st=$(field "$out" status); why=$(field "$out" reason)
    case "$st:$why" in
    proven-binary:*) bad "no_table_kind: q7v_do_clsfy proven";;
    *"op no row of its kind"*) ok "no_table_kind: q7v_do_clsfy $st (${why:0:160})";;
    *) bad "no_table_kind: q7v_do_clsfy is $st, not for an op of no row ($why)";;
    esac
fi
# d. q7v_ltnx16 takes the reference kernel when a's byte 0 is odd and the
#    path's kernel otherwise, and the AVX-512 kernel is wrong for an odd
#    byte 0: q7v_ltnx16 is right on every input, but its proof covers the
#    kernel only for the inputs it sends there, so q7v_do_cmp's row, which
#    sends it every input, must not stand on that proof
branchy_vec='/^\/\* Each instruction: its row.s kernel on the path in force. \*\/$/i #define q7v_ltnx16 q7v_ltnx16_unused
$a #undef q7v_ltnx16\
q7_vbool q7v_ltnx16(const q7_vec *a, const q7_vec *b)\
{\
    if (a->u8[0] \& 1) {\
        q7_vbool r = 0;\
        for (int k = 0; k < 32; k++)\
            if ((int16_t)a->u16[k] < (int16_t)b->u16[k]) r |= (q7_vbool)3 << (2 * k);\
        return r;\
    }\
    return kernels()[Q7V_OP_ltnx16].CMP(a, b);\
}'
branchy_kernel='s/^    return fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);/    q7_vbool r = fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);\n    return row.fmt == Q7_NX16 \&\& (a->u8[0] \& 1) ? r ^ 1 : r;/'
if plant branchy "$branchy_vec" "$branchy_kernel"; then
    out="$tmp/branchy/prove.json"
    prove "$tmp/branchy/lib.so" "$out" q7v_do_cmp ltnx16 avx512
    why=$(field "$out" reason)
    PYTHONPATH=prover "$PYTHON" -m q7prove.binary.vector --lib "$tmp/branchy/lib.so" --loader "$Q7PRED" \
        --function q7v_ltnx16 --paths avx512 --no-dispatch > "$tmp/branchy/named.json" 2>/dev/null
    st=$(field "$tmp/branchy/named.json" status)
    [ "$st" = unproven ] && [ "$(field "$tmp/branchy/named.json" reason)" = "dispatch: not checked" ] \
        && ok "branchy: q7v_ltnx16 itself proven on avx512" || bad "branchy: q7v_ltnx16 on avx512: $st"
    st=$(field "$out" status); cex=$(field "$out" counterexample)
    if [ "$st" != refuted ]; then bad "branchy: q7v_do_cmp is $st, not refuted ($(field "$out" reason))"
    elif Q7PRED_VEC=avx512 "$PYTHON" tests/prove/vec_replay.py "$tmp/branchy/lib.so" q7v_do_cmp "$cex" \
        > "$tmp/branchy/replay"; then
        ok "branchy: q7v_do_cmp refuted on ltnx16 (avx512), run into the kernel; natively $(cat "$tmp/branchy/replay")"
    else bad "branchy: the counterexample does not replay ($(cat "$tmp/branchy/replay")): $cex"; fi
fi
exit $fail
