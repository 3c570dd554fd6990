/* SPDX-License-Identifier: BSD-3-Clause */
/* Calls a library's eq_1_8_8 natively and prints the machine state it
   returns with, as its caller sees it: the direction flag, the x87
   control word, MXCSR, the x87 tag word and a long double product
   computed right after the call (NaN when the x87 stack was left full).
     state_after LIB A B */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*leaf_fn)(void *, uint32_t, uint32_t, uint32_t *);

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: state_after LIB A B\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h) {
        fprintf(stderr, "state_after: %s\n", dlerror());
        return 2;
    }
    leaf_fn f;
    *(void **)&f = dlsym(h, "module__xdref_eq_1_8_8");
    if (!f) {
        fprintf(stderr, "state_after: no module__xdref_eq_1_8_8 in %s\n", argv[1]);
        return 2;
    }
    uint32_t a = (uint32_t)strtoul(argv[2], NULL, 0), b = (uint32_t)strtoul(argv[3], NULL, 0), r = 0;
    uint64_t flags;
    uint16_t fcw;
    uint32_t mxcsr;
    uint16_t env[14];
    volatile long double x = 1.5L, y = 2.0L, p;
    f(NULL, a, b, &r);
    /* fnstenv masks the x87 exceptions: fldenv puts the environment back
       before the product */
    __asm__ volatile("pushfq\n\tpopq %0\n\tfnstcw %1\n\tstmxcsr %2\n\tfnstenv %3\n\tfldenv %3"
                     : "=r"(flags), "=m"(fcw), "=m"(mxcsr), "=m"(env));
    p = x * y;
    __asm__ volatile("cld\n\tfninit");
    uint32_t abi = 0x1f80;
    __asm__ volatile("ldmxcsr %0" : : "m"(abi));
    printf("result=%u df=%d fcw=%#06x mxcsr=%#06x tags=%#06x ld=%Lg\n", r, (int)((flags >> 10) & 1), fcw,
           mxcsr & 0xffc0, env[4], (long double)p);
    return 0;
}
