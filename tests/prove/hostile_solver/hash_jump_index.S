/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B) through an eight-entry jump table indexed by
   the top three bits of a 64-bit hash of A:B (murmur3's finaliser); entry
   5 answers A != B. Which inputs reach entry 5 is the hash's preimage of
   three bits: a question a solver may not settle in time. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
#include "murmur_ab.inc"
        shr rax, 61
        jump_table .Ltable
        right_wrong
        end_leaf eq_1_8_8

        rodata_table .Ltable
        .long .Lright - .Ltable, .Lright - .Ltable, .Lright - .Ltable, .Lright - .Ltable
        .long .Lright - .Ltable, .Lwrong - .Ltable, .Lright - .Ltable, .Lright - .Ltable
