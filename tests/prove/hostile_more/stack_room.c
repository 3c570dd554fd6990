/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 with a 900 KB frame (within the 1 MiB a proof allows), in a
 * library whose constructor leaves the stack less room than that:
 *   1: RLIMIT_STACK lowered to 256 KiB
 *   2: a PROT_NONE page mapped 512 KiB below the constructor's frame (the
 *      stack cannot grow to it, nor within the kernel's guard gap of it)
 *   3: RLIMIT_STACK lowered to 768 KiB (soft and hard)
 * and 0, the control: the constructor sets the limit it found. */
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>

static void __attribute__((constructor)) shrink(void)
{
    struct rlimit r;
    getrlimit(RLIMIT_STACK, &r);
#if VARIANT == 1
    r.rlim_cur = 256 * 1024;
#elif VARIANT == 2
    char here;
    uintptr_t p = ((uintptr_t)&here - (512u << 10)) & ~(uintptr_t)4095;
    mmap((void *)p, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
#elif VARIANT == 3
    r.rlim_cur = r.rlim_max = 768 * 1024;
#endif
    setrlimit(RLIMIT_STACK, &r);
}

void module__xdref_eq_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *out)
{
    volatile char frame[900000];
    (void)xstate;
    frame[0] = (char)(a == b);
    *out = (uint32_t)frame[0];
}
