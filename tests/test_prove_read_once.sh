#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What q7pred prove hashes is what it proves, loads and replays: the
# library is read once, into a sealed copy. An interpreter wrapper
# replaces the library at the user's path just as the prover starts (the
# moment between the hash and the prover's reading), first by a rename
# (another file), then by writing over it (the same file): the report
# still names the user's path, its SHA-256 is the bytes read at the start,
# the proof is of those bytes (the planted bug refuted, where the
# replacement is right), and the native replay calls those bytes too (it
# agrees with the prediction; the replacement would answer otherwise). And
# a library whose dependency is found through $ORIGIN still loads from the
# copy, with that dependency.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone (a SKIP
# without them, a failure under CI=true).
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
prove_test_begin
planted=$BUILD/tests/prove/planted_bugs.so
[ -f "$planted" ] || { echo "FAIL: no $planted (make prove-binary-libs)"; exit 1; }
sha() { sha256sum "$1" | cut -d' ' -f1; }
for how in rename overwrite; do
    cp "$planted" "$tmp/lib.so"
    if [ $how = rename ]; then swap="cp '$Q7LIB' '$tmp/new.so' && mv '$tmp/new.so' '$tmp/lib.so'"
    else swap="cat '$Q7LIB' >'$tmp/lib.so'"; fi
    printf '#!/bin/sh\n%s\nexec "%s" "$@"\n' "$swap" "$PYTHON" >"$tmp/python"
    chmod +x "$tmp/python"
    "$Q7PRED" prove --lib "$tmp/lib.so" --leaf olt_1_4_32f_32f --leaf eq_2_16_16 --python "$tmp/python" \
        --json "$tmp/r.json" >"$tmp/out" 2>&1; rc=$?
    if [ "$(sha "$tmp/lib.so")" != "$(sha "$Q7LIB")" ]; then bad "$how: the wrapper did not replace the library"; continue; fi
    got=$("$PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["library"], d["file"]["sha256"])' "$tmp/r.json")
    [ "$got" = "$tmp/lib.so $(sha "$planted")" ] && ok "$how: the report names the path and the SHA-256 of the bytes read at the start" ||
        bad "$how: the report says '$got', the bytes read were $(sha "$planted")"
    st=$(member "$tmp/r.json" olt_1_4_32f_32f status); replay=$(member "$tmp/r.json" olt_1_4_32f_32f replay)
    if [ $rc -eq 1 ] && [ "$st" = refuted ] && [ "$replay" = "the real call agrees with the prediction" ] &&
       [ "$(member "$tmp/r.json" olt_1_4_32f_32f native.result)" = 0x0 ] && [ "$(member "$tmp/r.json" eq_2_16_16 status)" = proven-binary ]; then
        ok "$how: the planted bug refuted and replayed on the bytes read (native 0x0), not on the replacement"
    else bad "$how: exit $rc, olt_1_4_32f_32f $st, replay '$replay'"; cat "$tmp/out"; fi
    [ "$("$Q7PRED" call --lib "$tmp/lib.so" olt_1_4_32f_32f 0x3f800000 0x40000000 | grep "^result")" = "result = 0xf" ] &&
        ok "$how: the replacement itself answers 0xf there: the replay did not call it" || bad "$how: the replacement is not right"
done
# the copy is loaded from elsewhere: a dependency the library finds through
# $ORIGIN is found where the library is, as verify and call find it
CC=${CC:-cc}
mkdir -p "$tmp/sdk/lib" "$tmp/sdk/bin"
"$CC" -O2 -shared -fPIC -Wl,-soname,libq7dep.so -o "$tmp/sdk/lib/libq7dep.so" tests/prove/hostile_loader/origin_dep.c &&
"$CC" -O2 -shared -fPIC -o "$tmp/sdk/bin/user.so" tests/prove/hostile_loader/origin_user.c -L"$tmp/sdk/lib" -lq7dep \
    -Wl,-rpath,'$ORIGIN/../lib' || bad "cannot build the \$ORIGIN libraries"
"$Q7PRED" call --lib "$tmp/sdk/bin/user.so" eq_1_8_8 3 3 >/dev/null || bad "\$ORIGIN: q7pred call does not load it"
"$Q7PRED" prove --lib "$tmp/sdk/bin/user.so" --leaf eq_1_8_8 --leaf ltu_1_8_8 --json "$tmp/o.json" >"$tmp/o.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && [ "$(member "$tmp/o.json" ltu_1_8_8 status)" = proven-binary ] &&
   member "$tmp/o.json" eq_1_8_8 reason | grep -q "q7hostile_dep_eq (.*sdk/bin/../lib/libq7dep.so)"; then
    ok "\$ORIGIN/../lib: the copy loads with the dependency beside the library (ltu proven, eq's import named)"
else bad "\$ORIGIN/../lib: exit $rc"; cat "$tmp/o.out"; fi
exit $fail
