#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A leaf row whose model function takes its operands out of the shape's
# order (A, B, C) is refused at build time, since the decoded operation that
# the batch, host and vector paths run names no operands. A scratch copy of
# the tables gets one extra row; the files that decode rows must compile it
# in order and refuse it permuted, naming the operand passed out of place
# (its type, struct q7_operand_<name>, in the compiler's message); a row
# calling a function with no operation code is refused too.
set -u
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
CC=${CC:-cc}
src=${SRCDIR:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
decoders="src/lib/abi/leaf_op.c src/lib/vec/kernels_portable.c"

with_row() { # row: compiles every decoder with the row appended; output in $tmp/log
    rm -rf "$tmp/tree"; mkdir -p "$tmp/tree"
    cp -r "$src/include" "$src/src" "$tmp/tree/"
    echo "$1" >> "$tmp/tree/include/q7pred_leaves.def"
    (cd "$tmp/tree" && for f in $decoders; do
        $CC -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude -Isrc/lib -Isrc/tools -fsyntax-only "$f" || exit 1
     done) > "$tmp/log" 2>&1
}

compiles() { # name, row
    if with_row "$2"; then ok "$1"; else bad "$1"; sed 's/^/    /' "$tmp/log" | head -5; fi
}
refused() { # name, row, what the compiler must report (an extended regex)
    if with_row "$2"; then bad "$1 (it compiled)"
    elif grep -Eq "$3" "$tmp/log"; then ok "$1"
    else bad "$1 (the error does not name $3)"; sed 's/^/    /' "$tmp/log" | head -5; fi
}

compiles "in order: compiles" \
    'LEAF(gt_1_8_8, BIN, 1, 8, INT_COMPARE, INFERRED, REP(q7_lt_i8(A, B)))'
compiles "gated, in order: compiles" \
    'LEAF(olt_x_t, TER, 1, 16, FP_TAIL, INFERRED, q7_gate(C, REP(q7_f16_lt(A, B))))'
given() { echo "(argument is of type|passing) .(const )?struct q7_operand_$1."; }
refused "compare with B, A: refused" \
    'LEAF(gt_1_8_8, BIN, 1, 8, INT_COMPARE, INFERRED, REP(q7_lt_i8(B, A)))' "$(given B)"
refused "mask op with B, A: refused" \
    'LEAF(andnotb_rev, M2, 64, 64, MASK_LOGIC, INFERRED, q7_andnotb(B, A))' "$(given B)"
refused "gate on A: refused" \
    'LEAF(olt_rev_t, TER, 1, 16, FP_TAIL, INFERRED, q7_gate(A, REP(q7_f16_lt(C, B))))' "$(given A)"
refused "gate on B, compare in order: refused" \
    'LEAF(olt_gb_t, TER, 1, 16, FP_TAIL, INFERRED, q7_gate(B, REP(q7_f16_lt(A, B))))' "$(given B)"
refused "injbi with A, C, B: refused" \
    'LEAF(injbi_rev, INJBI, 8, 8, BIT_PLANE, INFERRED, q7_injbi8(A, C, B))' "$(given C)"
refused "bitkill of B: refused" \
    'LEAF(bitkillt_rev, KILL, 8, 1, BITKILL, INFERRED, q7_bitkillt(B, 8))' "$(given B)"
refused "a function with no operation code: refused" \
    'LEAF(field_rev, BIN, 1, 8, INT_COMPARE, INFERRED, q7_field(1, 8))' "q7_no_operation_code"
echo "$([ $fail -eq 0 ] && echo all passed || echo some failed)"
exit $fail
