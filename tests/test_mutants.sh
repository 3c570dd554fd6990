#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make mutants: each library under build/mutants/ commits one pitfall of
# spec §1; `q7pred verify --lib` must exit 1 and name exactly the leaves the
# pitfall breaks (derived here from the leaf map, not from the tool), and
# must exit 0 for the unmutated library.
set -u
fail=0
dir=$BUILD/mutants
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ ! -d "$dir" ]; then echo "no $dir: run make mutants"; exit 1; fi

f16w="1_1_16f_16f 1_2_16f_16f 1_4_32f_32f"
tails16="1_2_16f_16f_2f_t"; tails32="1_4_32f_32f_4f_t"
expand() { # preds forms -> leaf names
    local p f; for f in $2; do for p in $1; do echo "${p}_$f"; done; done
}
expect_nan_polarity=$(expand "oeq olt ole" "$f16w $tails16 $tails32")
expect_snan_bit="clsfy_16f_16f clsfy_32f_32f"
expect_nan_finite="clsfy_16f_16f clsfy_32f_32f"
expect_field_width="$(expand "lt ltu le leu eq neq" "2_16_16 4_32_32")
$(expand "oeq olt ole un ueq ult ule" "1_2_16f_16f 1_4_32f_32f $tails16 $tails32")
extbi_2_16_32 extbi_4_32_32"
expect_signed_unsigned=$(expand "lt le" "1_8_8 2_16_16 4_32_32")
expect_tail_gate=$(expand "oeq olt ole un ueq ult ule" "$tails16 $tails32")
expect_result_in_aux=$(expand "oeq olt ole" "$f16w")

for m in nan_polarity snan_bit field_width signed_unsigned tail_gate result_in_aux nan_finite; do
    lib=$dir/$m.so
    "$Q7PRED" verify --lib "$lib" --oracles sem --corpus grid,fuzz --fuzz-count 300 --no-progress >"$out" 2>&1
    rc=$?
    want=$(eval echo "\$expect_$m" | tr ' ' '\n' | grep . | sort)
    got=$(sed -n 's/^failing leaves ([0-9]*)://p' "$out" | tr ' ' '\n' | grep . | sort)
    if [ $rc -ne 1 ]; then
        echo "FAIL: $m: exit $rc, want 1"; fail=1
    elif [ "$want" != "$got" ]; then
        echo "FAIL: $m: failing leaves differ from the pitfall's"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'
        fail=1
    else
        echo "ok: $m caught in exactly $(echo "$want" | wc -l) leaves"
    fi
done
"$Q7PRED" verify --lib "$Q7LIB" --oracles sem --corpus grid,fuzz --fuzz-count 300 --no-progress >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -q "^failing leaves" "$out"; then
    echo "FAIL: the unmutated library: exit $rc"; tail -5 "$out"; fail=1
else
    echo "ok: the unmutated library agrees (exit 0)"
fi
exit $fail
