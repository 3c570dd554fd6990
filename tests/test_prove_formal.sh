#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make prove-formal (mk/prove.mk) is the binary proof of the build's own
# library, and that proof fails where the code is wrong:
#   1. its command is q7pred prove --all on $BUILD/libq7pred.so into
#      $BUILD/prove-formal.json (make -n; the whole run is
#      tests/test_prove_all.sh's); LEAF=x is --leaf x, with no --all and no
#      JSON;
#   2. make prove-formal LEAF=lt_1_8_8 runs: that leaf proven-binary, the
#      JSON left as it was;
#   3. LEAF=q7_f32_lt, LEAF=q7v_ltnx16 (functions, which have no selector):
#      refused naming the name, nothing proven;
#   4. the `make mutants` libraries: nan_polarity, field_width and
#      tail_gate proven whole, refuted on exactly the leaves their pitfall
#      breaks (tests/support/mutant_expect.sh, derived by hand from the leaf
#      map), every other leaf proven-binary, exit 1; the other four refuted
#      on each leaf their pitfall breaks.
# The make runs never rebuild q7pred or the library (-o): other tests use them.
# slow: three mutant libraries proven whole, four in part (about 45 s CPU)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" --no-print-directory -C "$SRCDIR" BUILD="$BUILD" \
           -o "$BUILD/q7pred" -o "$BUILD/libq7pred.so" "$@"; }
json=$BUILD/prove-formal.json
before=$( [ -e "$json" ] && sha256sum <"$json" || echo none)

# ---- 1. the command
mk -n prove-formal >"$tmp/n.out" 2>&1 || bad "make -n prove-formal: $(tail -n 2 "$tmp/n.out")"
cmd=$(grep " prove " "$tmp/n.out")
if [ "$(echo "$cmd" | wc -l)" = 1 ] && [[ $cmd == "$BUILD/q7pred prove "* ]] &&
   [[ " $cmd " == *" --lib $BUILD/libq7pred.so "* ]] && [[ " $cmd " == *" --all "* ]] &&
   [[ " $cmd " == *" --json $json "* ]] && [[ $cmd != *--leaf* ]]; then
    ok "make prove-formal runs: $cmd"
else bad "make -n prove-formal: '$cmd'"; fi
mk -n prove-formal LEAF=lt_1_8_8 >"$tmp/n.out" 2>&1
cmd=$(grep " prove " "$tmp/n.out")
if [[ " $cmd " == *" --leaf lt_1_8_8 "* ]] && [[ $cmd != *--all* ]] && [[ $cmd != *--json* ]]; then
    ok "LEAF=lt_1_8_8 runs: $cmd"
else bad "make -n prove-formal LEAF=lt_1_8_8: '$cmd'"; fi

# ---- 2. one leaf, run
mk prove-formal LEAF=lt_1_8_8 >"$tmp/leaf.out" 2>&1; rc=$?
after=$( [ -e "$json" ] && sha256sum <"$json" || echo none)
if [ $rc -eq 0 ] && grep -q '^proven-binary lt_1_8_8 ' "$tmp/leaf.out" &&
   grep -qx '1 leaves: 1 proven-binary, 0 refuted, 0 unproven, 0 absent' "$tmp/leaf.out" && [ "$before" = "$after" ]; then
    ok "make prove-formal LEAF=lt_1_8_8: proven-binary, $json left as it was"
else bad "make prove-formal LEAF=lt_1_8_8: exit $rc, $(tail -n 3 "$tmp/leaf.out")"; fi

# ---- 3. a function's name
for f in q7_f32_lt q7v_ltnx16; do
    mk prove-formal LEAF=$f >"$tmp/f.out" 2>&1; rc=$?
    if [ $rc -ne 0 ] && grep -q "^prove-formal: LEAF=$f is a function, not a leaf: make prove-formal without LEAF proves every q7_ and q7v_ function" "$tmp/f.out" &&
       ! grep -q 'proven\|prove --lib' "$tmp/f.out"; then
        ok "LEAF=$f refused, nothing proven"
    else bad "make prove-formal LEAF=$f: exit $rc, $(head -c 300 "$tmp/f.out")"; fi
done

# ---- 4. the mutants: three proven whole, the others on their pitfall's leaves
. tests/support/mutant_expect.sh
all=$("$Q7PRED" list --json | "$PYTHON" -c 'import json, sys; print("\n".join(l["suffix"] for l in json.load(sys.stdin)["leaves"]))' | sort)
WHOLE=" nan_polarity field_width tail_gate "     # between them: fp, integer and _t compares
prove_mutant() { # name
    local args=()
    if [[ $WHOLE != *" $1 "* ]]; then for l in $(eval echo "\$expect_$1"); do args+=(--leaf "$l"); done; fi
    "$Q7PRED" prove --quiet --lib "$BUILD/mutants/$1.so" "${args[@]}" --json "$tmp/$1.json" >"$tmp/$1.out" 2>&1
    echo $? >"$tmp/$1.rc"
}
running=0
for m in $MUTANT_NAMES; do
    [ -f "$BUILD/mutants/$m.so" ] || { bad "no $BUILD/mutants/$m.so (make check builds the mutants: mutant-libs)"; continue; }
    prove_mutant "$m" &
    running=$((running + 1)); [ $running -ge 2 ] && { wait -n; running=$((running - 1)); }
done
wait
for m in $MUTANT_NAMES; do
    [ -f "$tmp/$m.rc" ] || continue
    want=$(eval echo "\$expect_$m" | tr ' ' '\n' | grep . | sort)
    refuted=$(statuses "$tmp/$m.json" | awk '$2 == "refuted" {print $1}' | sort)
    proven=$(statuses "$tmp/$m.json" | awk '$2 == "proven-binary" {print $1}' | sort)
    rest=$(comm -23 <(echo "$all") <(echo "$want"))
    [[ $WHOLE == *" $m "* ]] || rest=
    if [ "$(cat "$tmp/$m.rc")" = 1 ] && [ "$want" = "$refuted" ] && [ "$rest" = "$proven" ] &&
       ! grep -q 'TRANSLATOR IS WRONG' "$tmp/$m.out"; then
        ok "mutant $m: exactly its $(echo "$want" | wc -l) leaves refuted, the other $(echo "$rest" | grep -c .) proven-binary"
    else
        bad "mutant $m: exit $(cat "$tmp/$m.rc"); refuted vs the pitfall's, proven vs the rest:"
        diff <(echo "$want") <(echo "$refuted") | head -5; diff <(echo "$rest") <(echo "$proven") | head -5
    fi
done
exit $fail
