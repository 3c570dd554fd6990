/* SPDX-License-Identifier: BSD-3-Clause */
/* The base of the PLT disagreements (patch_elf.py dup-jmprel, plt-addend,
 * lazy-slot): eq_1_8_8 calls q7hostile_helper (right) through the PLT;
 * q7hostile_wrong is what a patch makes the call reach in a real process.
 * q7hostile_helper starts with a jump over a wrong tail, which a JUMP_SLOT
 * addend of 2 lands in. The .rodata block is room for a relocation entry. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

__asm__(".text\n"
        ".globl q7hostile_helper\n"
        ".type q7hostile_helper, @function\n"
        "q7hostile_helper:\n"
        "    jmp 1f\n"                 /* 2 bytes: eb 07 */
        "    xor %eax, %eax\n"         /* the wrong tail, at +2: *r = a != b */
        "    cmp %edx, %esi\n"
        "    setne %al\n"
        "    jmp 2f\n"
        "1:  xor %eax, %eax\n"
        "    cmp %edx, %esi\n"
        "    sete %al\n"
        "2:  mov %eax, (%rdi)\n"
        "    ret\n"
        ".size q7hostile_helper, .-q7hostile_helper\n");
void q7hostile_helper(uint32_t *r, uint32_t a, uint32_t b);
EXPORT void q7hostile_wrong(uint32_t *r, uint32_t a, uint32_t b) { *r = a != b; }
EXPORT const uint64_t q7hostile_room[3] __attribute__((aligned(8))) = { 0x51a7e0f5eedULL, 0, 0 };

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    q7hostile_helper(r, a, b);
}
