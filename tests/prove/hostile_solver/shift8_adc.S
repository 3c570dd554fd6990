/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 plus the CF a byte shift of 1 by A & 15 leaves, taken in by
   adc rather than read by a setcc: 0 for a count under 8, undefined at 8
   or more (a processor that sets it at 8 answers 2 for 8 == 8). */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        count_from_a 15
        cmp_ab e
        mov r8b, 1
        shl r8b, cl
        adc eax, 0
        mov [r10], eax
        ret
        end_leaf eq_1_8_8
