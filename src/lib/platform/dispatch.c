/* SPDX-License-Identifier: BSD-3-Clause */
/* Run-time path choice: a component's table, the CPU, the environment. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

int q7_dispatch_find(const q7_dispatch *d, const char *name)
{
    for (int p = 0; name && p < d->count; p++)
        if (strcmp(name, d->path[p].name) == 0 || (d->path[p].short_name && strcmp(name, d->path[p].short_name) == 0))
            return p;
    return -1;
}

bool q7_dispatch_supported(const q7_dispatch *d, int p)
{
    return p >= 0 && p < d->count && q7_cpu_has(d->path[p].needs);
}

int q7_dispatch_best(q7_dispatch *d)
{
    int b = atomic_load_explicit(&d->best, memory_order_relaxed);
    if (b >= 0) return b;
    for (b = 0; b < d->count - 1 && !q7_dispatch_supported(d, b); b++) {}
    atomic_store_explicit(&d->best, b, memory_order_relaxed);
    return b;
}

int q7_dispatch_now(q7_dispatch *d)
{
    int p = atomic_load_explicit(&d->forced, memory_order_relaxed);
    if (p >= 0) return p;
    int e = atomic_load_explicit(&d->from_env, memory_order_relaxed);
    if (e == -2) {
        e = q7_dispatch_find(d, getenv(d->env));
        if (!q7_dispatch_supported(d, e)) e = -1;
        atomic_store_explicit(&d->from_env, e, memory_order_relaxed);
    }
    return e >= 0 ? e : q7_dispatch_best(d);
}

bool q7_dispatch_select(q7_dispatch *d, const char *name)
{
    if (name && strcmp(name, "auto") == 0) {
        atomic_store_explicit(&d->forced, -1, memory_order_relaxed);
        return true;
    }
    int p = q7_dispatch_find(d, name);
    if (!q7_dispatch_supported(d, p)) return false;
    atomic_store_explicit(&d->forced, p, memory_order_relaxed);
    return true;
}
