#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make show LEAF=NAME (tools/show_leaf.py): for a leaf of each kind of
# shape (a register compare with an aux word, a gated tail, the FS reduce
# of eight masks, the bit-plane move of a vector), with clang-format and
# with the tool's own formatter, the output holds the leaf's row, the
# definition of its exported wrapper, of its semantics, of the model
# function its row names (q7_<op> is q7m_<op>) and its registry record
# naming it and its word-layout entry; its braces balance and no line is
# longer than the format's 120 columns (the tool's own: its 100 and the
# one word it cannot break). A leaf the table does not have, or none, is a
# usage error (exit 2) that names the nearest leaves.
# slow: clang-format and the preprocessor on a leaf of each shape (about 10 s)
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
PYTHON=${PYTHON:-/usr/bin/python3}
cd "$SRCDIR"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
show() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s show "$@"; }

formats=(simple)
command -v clang-format >/dev/null && formats+=(clang-format)
for leaf in olt_1_2_16f_16f ule_1_4_32f_32f_4f_t bnorfs_2n_64_64_64_64_64_64_64_64_64 movfsv_64_64_64_64_64_64_64_64_512; do
    row=$(grep "^LEAF($leaf," include/q7pred_leaves.def)
    op=$(echo "$row" | grep -o 'q7_[a-z0-9_]*(' | grep -v '^q7_gate(\|^q7_field(' | head -n 1 | sed 's/^q7_//; s/($//')
    for fmt in "${formats[@]}"; do
        out="$t/$leaf.$fmt"
        show LEAF="$leaf" FORMAT="$fmt" >"$out" 2>"$t/err" || { bad "$leaf ($fmt): exit $?: $(cat "$t/err")"; continue; }
        for want in "LEAF($leaf," "module__xdref_$leaf(" "q7_sem_$leaf(" "q7m_$op(" "\"$leaf\"" "q7_eval_$leaf("; do
            grep -qF -- "$want" "$out" || bad "$leaf ($fmt): no '$want'"
        done
        for def in "void module__xdref_$leaf(" "static inline void q7_sem_$leaf(" "q7m_$op(" "static inline void q7_eval_$leaf("; do
            grep -E "^[A-Za-z_ 0-9*]*${def//(/\\(}" "$out" >/dev/null || bad "$leaf ($fmt): no definition starting '$def'"
        done
        grep -q 'static const q7_leaf row = *{' "$out" || bad "$leaf ($fmt): no registry record"
        [ "$(tr -cd '{' <"$out" | wc -c)" -eq "$(tr -cd '}' <"$out" | wc -c)" ] || bad "$leaf ($fmt): braces do not balance"
        long=$(awk 'length($0) > 120' "$out" | grep -vc '^ *[^ ]*$')
        [ "$long" -eq 0 ] || bad "$leaf ($fmt): $long lines past 120 columns"
    done
    echo "ok: $leaf ($(wc -l <"$t/$leaf.simple") lines, formats ${formats[*]})"
done

# a usage error names the nearest leaves
"$PYTHON" tools/show_leaf.py --cc "${CC:-cc} -Iinclude -Isrc/lib -Isrc/tools" olt_1_2_16 >/dev/null 2>"$t/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "no leaf 'olt_1_2_16' in include/q7pred_leaves.def (nearest: olt_1_2_16f_16f" "$t/err" ||
    bad "an unknown leaf: exit $rc, '$(cat "$t/err")'"
"$PYTHON" tools/show_leaf.py --cc "${CC:-cc} -Iinclude -Isrc/lib -Isrc/tools" >/dev/null 2>"$t/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "name a leaf: make show LEAF=" "$t/err" || bad "no leaf: exit $rc, '$(cat "$t/err")'"

[ "$fail" -eq 0 ] || exit 1
echo "PASS: make show cuts out and formats each leaf's wrapper, semantics, model functions and registry record"
