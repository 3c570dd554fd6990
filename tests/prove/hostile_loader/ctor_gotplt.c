/* SPDX-License-Identifier: BSD-3-Clause */
/* Lazy binding (no -z now: .got.plt stays writable): a constructor points
 * the PLT slot of the helper eq_1_8_8 calls at a wrong function. */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void q7hostile_helper(uint32_t *r, uint32_t a, uint32_t b) { *r = a == b; }
EXPORT void q7hostile_wrong(uint32_t *r, uint32_t a, uint32_t b) { *r = a != b; }

__attribute__((constructor)) static void ctor(void)
{
    unsigned char *plt;
    __asm__("lea q7hostile_helper@PLT(%%rip), %0" : "=r"(plt));
    /* the PLT entry (or its .plt.sec twin) jumps through its slot: ff 25 rel32, maybe after endbr64 and bnd */
    unsigned k = plt[0] == 0xf3 ? 4 : 0;
    k += plt[k] == 0xf2;
    if (plt[k] != 0xff || plt[k + 1] != 0x25) return;
    int32_t rel;
    memcpy(&rel, plt + k + 2, 4);
    void (**slot)(uint32_t *, uint32_t, uint32_t) = (void *)(plt + k + 6 + rel);
    *slot = q7hostile_wrong;
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    q7hostile_helper(r, a, b);
}
