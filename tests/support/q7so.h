/* SPDX-License-Identifier: BSD-3-Clause */
/* Opens the shared library under test: $Q7LIB (set by tests/harness.sh),
 * else $BUILD/libq7pred.so, else build/libq7pred.so. */
#ifndef Q7_TESTS_Q7SO_H
#define Q7_TESTS_Q7SO_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static inline const char *q7so_path(void)
{
    static char buf[4096];
    const char *p = getenv("Q7LIB");
    if (p && *p) return p;
    const char *b = getenv("BUILD");
    snprintf(buf, sizeof buf, "%s/libq7pred.so", b && *b ? b : "build");
    return buf;
}

static inline void *q7so_open(void)
{
    void *h = dlopen(q7so_path(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "cannot dlopen %s: %s\n", q7so_path(), dlerror());
        exit(1);
    }
    return h;
}

/* The shared library's own symbol (the dlopen handle's scope only). */
static inline q7_abi_fn q7so_sym(void *h, const char *symbol)
{
    return (q7_abi_fn)dlsym(h, symbol);
}

#endif
