/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_soundness.sh): stack
 * stores relative to %rsp.
 *   neq_1_8_8   keeps its result 2000 bytes below %rsp and reads it back: a
 *               signal handler may overwrite those bytes in between, so the
 *               leaf is not right under signals: unproven
 *   eq_1_8_8    the same within the 128-byte red zone: proven
 */
__asm__(".text\n"
        ".globl module__xdref_neq_1_8_8\n.type module__xdref_neq_1_8_8,@function\nmodule__xdref_neq_1_8_8:\n"
        "  xor %eax,%eax\n  cmp %edx,%esi\n  setne %al\n  mov %eax,-2000(%rsp)\n  mov -2000(%rsp),%eax\n"
        "  mov %eax,(%rcx)\n  ret\n"
        ".size module__xdref_neq_1_8_8,.-module__xdref_neq_1_8_8\n"
        ".globl module__xdref_eq_1_8_8\n.type module__xdref_eq_1_8_8,@function\nmodule__xdref_eq_1_8_8:\n"
        "  xor %eax,%eax\n  cmp %edx,%esi\n  sete %al\n  mov %eax,-128(%rsp)\n  mov -128(%rsp),%eax\n"
        "  mov %eax,(%rcx)\n  ret\n"
        ".size module__xdref_eq_1_8_8,.-module__xdref_eq_1_8_8\n");
