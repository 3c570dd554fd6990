/* SPDX-License-Identifier: BSD-3-Clause */
/* Code in a writable and executable segment, rewritten by a constructor:
 * eq_1_8_8's sete becomes setne once loaded. */
#include <stdint.h>

__asm__(".section .wtext,\"awx\",@progbits\n"
        ".globl module__xdref_eq_1_8_8\n"
        ".type module__xdref_eq_1_8_8, @function\n"
        "module__xdref_eq_1_8_8:\n"
        "    xor %eax, %eax\n"
        "    cmp %edx, %esi\n"
        "hostile_site:\n"
        "    sete %al\n"
        "    mov %eax, (%rcx)\n"
        "    ret\n"
        ".size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8\n"
        ".text\n");

extern unsigned char hostile_site[];

__attribute__((constructor)) static void ctor(void)
{
    hostile_site[1] = 0x95;   /* 0f 94 (sete) -> 0f 95 (setne) */
}
