/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run-time choice among a component's code paths. A component lists its
 * paths widest first with the CPU features each is compiled for (a path
 * that needs nothing ends the automatic choice; a path listed after it,
 * such as a reference, is taken only when named), and names an environment variable that
 * forces one. The path in force is the selected one, else the
 * environment's (read once; an unknown or unsupported name there is
 * ignored), else the widest this CPU runs. Any thread may ask; selecting
 * while batches run elsewhere is safe (each batch runs on one path).
 */
#ifndef Q7_PLATFORM_DISPATCH_H
#define Q7_PLATFORM_DISPATCH_H

#include <stdbool.h>

#include "cpu.h"

typedef struct q7_path {
    const char *name;        /* the path's name: "avx512bw+f16c", "portable" */
    const char *short_name;  /* also accepted by select ("avx512"), or NULL */
    unsigned needs;          /* Q7_CPU_* features its code is compiled for */
} q7_path;

typedef struct q7_dispatch {
    const q7_path *path;
    int count;
    const char *env;         /* the variable that forces a path */
    _Atomic int forced;      /* the selected path; -1: none */
    _Atomic int from_env;    /* -2: not read yet; -1: unset or not usable */
    _Atomic int best;        /* -1: not known yet */
} q7_dispatch;

/* A dispatch over a static array of paths. */
#define Q7_DISPATCH(paths, env_name) \
    { (paths), (int)(sizeof(paths) / sizeof((paths)[0])), (env_name), -1, -2, -1 }

/* The index of the path called `name` (or its short name); -1 if none. */
int q7_dispatch_find(const q7_dispatch *d, const char *name);
/* Whether this CPU has every feature path p needs. */
bool q7_dispatch_supported(const q7_dispatch *d, int p);
/* The widest path this CPU runs. */
int q7_dispatch_best(q7_dispatch *d);
/* The path in force. */
int q7_dispatch_now(q7_dispatch *d);
/* Forces the named path; "auto" drops the forcing (the environment's path,
 * else the widest). False, changing nothing, for an unknown or unsupported
 * name. */
bool q7_dispatch_select(q7_dispatch *d, const char *name);

#endif
