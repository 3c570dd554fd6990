/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B) through a two-entry jump table whose index
   is whether a 64-bit hash of A:B (murmur3's finaliser) equals one
   constant: the hash of A = B = 0x41, where the leaf answers 0. Finding
   the second target means inverting the hash; a prover that reads z3's
   "unknown" as "no more targets" never sees it. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
#include "murmur_ab.inc"
        cmp_magic
        sete al
        movzx eax, al
        jump_table .Ltable
        right_wrong
        end_leaf eq_1_8_8

        rodata_table .Ltable
        .long .Lright - .Ltable
        .long .Lwrong - .Ltable
