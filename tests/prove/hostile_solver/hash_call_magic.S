/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B) calls one of two helpers through a table of
   function offsets; the second, which answers A != B, only where a 64-bit
   hash of A:B equals the hash of A = B = 0x41. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
#include "murmur_ab.inc"
        cmp_magic
        sete al
        movzx eax, al
        lea r8, [rip + .Lhelpers]
        movsxd r9, dword ptr [r8 + rax * 4]
        add r9, r8
        call r9
        store_ret
        end_leaf eq_1_8_8
right:
        cmp_ab e
        ret
wrong:
        cmp_ab ne
        ret

        rodata_table .Lhelpers
        .long right - .Lhelpers, wrong - .Lhelpers
