#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A new relation cannot compile wrong. Each list of relations and mask
# operations (the model's Q7_FP_RELS, Q7_INT_RELS, Q7_MASK_OPS in
# src/lib/abi/leaf_op.h, the host's HOST_FP_PREDS, HOST_INT_PREDS,
# HOST_MASK_OPS in src/tools/host/host_impl.h) gets a planted row, PLANTED, in a
# copy of the tree, and every source is compiled there with the project's
# warnings (syntax only). The build must fail, and must name the planted
# case at every switch written over the list by hand (a switch with a
# `case <PREFIX>_<NAME>:` label in the untouched tree): each is on the
# list's enum with no default, so -Wswitch names what a new row lacks.
# A switch that one day falls through to a default, or switches on a
# plain integer, is reported here by file and line.
# slow: every source compiled once per planted row (about 25 s)
set -u
export LC_ALL=C   # the compilers' quotes as plain '
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-cc}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# list, file, enumerator prefix, the row planted
lists=(
    "Q7_FP_RELS src/lib/abi/leaf_op.h OPF_ X(ctx, PLANTED)"
    "Q7_INT_RELS src/lib/abi/leaf_op.h OPI_ X(ctx, PLANTED)"
    "Q7_MASK_OPS src/lib/abi/leaf_op.h OPM_ X(ctx, PLANTED)"
    "HOST_FP_PREDS src/tools/host/host_impl.h HF_ X(ctx, PLANTED, \"planted\")"
    "HOST_INT_PREDS src/tools/host/host_impl.h HI_ X(ctx, PLANTED, \"planted\")"
    "HOST_MASK_OPS src/tools/host/host_impl.h HM_ X(ctx, PLANTED, \"planted\")"
)

cp -r "$SRCDIR/include" "$SRCDIR/src" "$t/"
for l in "${lists[@]}"; do
    read -r list file prefix row <<<"$l"
    grep -q "^#define $list(X, ctx)" "$t/$file" || { bad "$list: no '#define $list(X, ctx)' in $file"; continue; }
    sed -i "s/^#define $list(X, ctx)/& $row/" "$t/$file"
done

# The untouched tree must build clean with the same command.
compile() { # root
    (cd "$1" && find src -name '*.c' | sort | xargs -P2 -n 16 "$CC" -std=c11 -Wall -Wextra -Werror \
        -fvisibility=hidden -D_GNU_SOURCE -Iinclude -Isrc/lib -Isrc/tools -fsyntax-only) >"$2" 2>&1
}
compile "$SRCDIR" "$t/clean.log" || { bad "the untouched tree does not compile:"; head -n 20 "$t/clean.log"; }
compile "$t" "$t/planted.log" && bad "the tree with the planted rows compiled"

# Every hand-written switch over a list: FILE:LINE PREFIX, from the
# untouched tree (the line of the switch whose case labels name it).
(cd "$SRCDIR" && find src \( -name '*.c' -o -name '*.h' \) | sort | xargs awk '
    FNR == 1 { sw = 0 }
    /switch \(/ { sw = FNR }
    sw && match($0, /case (OPF|OPI|OPM|HF|HI|HM)_[A-Z0-9]+:/) {
        p = substr($0, RSTART + 5); sub(/_.*/, "_", p); print FILENAME ":" sw " " p
    }' | sort -u) >"$t/sites"

for l in "${lists[@]}"; do
    read -r list file prefix row <<<"$l"
    n=$(grep -c " $prefix\$" "$t/sites")
    [ "$n" -gt 0 ] || bad "$list: no switch over it found (is the case label's spelling $prefix<NAME>?)"
    while read -r site p; do
        [ "$p" = "$prefix" ] || continue
        grep -q "^$site:[0-9]*: error: enumeration value '${prefix}PLANTED' not handled in switch" "$t/planted.log" ||
            bad "$site: the switch over $list does not name a planted ${prefix}PLANTED (a default, or not on the enum)"
    done <"$t/sites"
    echo "$list: $n switches, each names ${prefix}PLANTED"
done

if [ "$fail" -ne 0 ]; then
    echo "the planted build's errors:"; grep -E 'error:' "$t/planted.log" | sort -u | head -n 40
    exit 1
fi
echo "PASS: a planted relation or mask operation fails to build at every switch over its list"
