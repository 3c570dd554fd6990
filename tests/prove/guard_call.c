/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * guard_call LIB SYMBOL: calls SYMBOL(NULL, a, b, r), a leaf of two
 * 64-bit masks, with a's two words the last 8 bytes of a page that a page
 * nobody may touch follows (tests/test_prove_models.sh): exit 0 when the
 * call returns, killed by SIGSEGV when the leaf reads past a; 2 on a usage
 * or loading error.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

typedef void leaf_fn(void *, const uint32_t *, const uint32_t *, uint32_t *);

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: guard_call LIB SYMBOL\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    void *sym = lib ? dlsym(lib, argv[2]) : NULL;
    if (!sym) {
        fprintf(stderr, "guard_call: %s\n", dlerror());
        return 2;
    }
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p + page, (size_t)page, PROT_NONE) != 0) {
        perror("guard_call");
        return 2;
    }
    uint32_t *a = (uint32_t *)(p + page - 8), b[2] = { 0xffffffffu, 0xffffffffu }, r[2] = { 0, 0 };
    a[0] = 0x12345678u;
    a[1] = 0x9abcdef0u;
    leaf_fn *f;
    *(void **)&f = sym;
    f(NULL, a, b, r);
    printf("%08x %08x\n", r[0], r[1]);
    return 0;
}
