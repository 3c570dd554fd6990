/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 reads a thread-local word through the initial-exec model: the
 * GOT entry it loads is an R_X86_64_TPOFF64 relocation (an offset from the
 * thread pointer the loader picks), which the proof does not model: it
 * must say so, naming it. Natively right. */
#include <stdint.h>

__attribute__((visibility("default"))) volatile __thread uint32_t q7hostile_one
    __attribute__((tls_model("initial-exec"))) = 1;

__attribute__((visibility("default"))) void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = (a == b) & q7hostile_one;
}
