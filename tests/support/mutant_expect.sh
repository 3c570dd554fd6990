# SPDX-License-Identifier: BSD-3-Clause
# The leaves each `make mutants` pitfall (src/lib/abi/mutants.h) breaks, derived
# from the leaf map by hand, not from any tool: $expect_<mutant> lists them.
# Sourced by tests/test_mutants.sh (verify --lib must name exactly these) and
# tests/test_prove_formal.sh (q7pred prove refutes each; the proof of a whole
# library refutes exactly these).
MUTANT_NAMES="nan_polarity snan_bit field_width signed_unsigned tail_gate result_in_aux nan_finite"
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

