/* SPDX-License-Identifier: BSD-3-Clause */
/* The name tables of verify's enums (names.h). */
#include <stdio.h>
#include <string.h>

#include "verify/names.h"

bool q7d_abi_called_as(const q7d_abi *abi, size_t l, char *buf, size_t size)
{
    int sh = abi->shape[l];
    buf[0] = '\0';
    if (sh < 0) return false;
    bool natural = q7_args_order_is_natural((q7_shape)sh, abi->order[l]);
    if (natural && sh == (int)q7_leaf_at(l)->shape) return false;
    size_t u = (size_t)snprintf(buf, size, "as %s", q7_shape_info_of((q7_shape)sh)->name);
    if (!natural) {
        q7_arg args[Q7_MAX_ARGS];
        unsigned n = q7_shape_args((q7_shape)sh, args);
        u += (size_t)snprintf(buf + u, u < size ? size - u : 0, " in the order");
        for (unsigned a = 0; a < n && u < size; a++)
            u += (size_t)snprintf(buf + u, size - u, "%s%s", a ? ", " : " ", args[abi->order[l][a]].name);
    }
    return true;
}

static const char *const cell_state_names[Q7D_CELL_STATE_COUNT] = {
    [Q7D_CELL_RAN] = "ran",
    [Q7D_CELL_NA] = "n/a",
    [Q7D_CELL_UNAVAILABLE] = "unavailable",
    [Q7D_CELL_CRASHED] = "crashed",
    [Q7D_CELL_STOPPED] = "stopped",
    [Q7D_CELL_ABSENT] = "absent",
    [Q7D_CELL_NOT_CALLED] = "not-called",
};

static const char *const out_state_names[Q7D_OUT_STATE_COUNT] = {
    [Q7D_OUT_VALUE] = "value",
    [Q7D_OUT_NA] = "n/a",
    [Q7D_OUT_OOD] = "out-of-domain",
    [Q7D_OUT_NOT_RUN] = "not-run",
};

static const char *const crash_kind_names[Q7D_CRASH_KIND_COUNT] = {
    [Q7D_CRASH_SIGNAL] = "signal",
    [Q7D_CRASH_HANG] = "hang",
    [Q7D_CRASH_EXIT] = "exit",
    [Q7D_CRASH_PROTOCOL] = "protocol",
};

static const char *const oracle_kind_names[Q7D_ORACLE_KIND_COUNT] = {
#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) [Q7D_##id] = #name,
#include "verify/oracles.def"
#undef Q7D_ORACLE
};

static const q7d_oracle_info oracle_infos[Q7D_ORACLE_KIND_COUNT] = {
#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) \
    [Q7D_##id] = { #name, Q7D_COLUMNS_##columns, default_on, arg, corpus, help },
#include "verify/oracles.def"
#undef Q7D_ORACLE
};

const q7d_oracle_info *q7d_oracle_info_of(q7d_oracle_kind k)
{
    return (unsigned)k < Q7D_ORACLE_KIND_COUNT ? &oracle_infos[k] : NULL;
}

static const char *name_at(const char *const *names, unsigned count, unsigned v)
{
    return v < count && names[v] ? names[v] : "?";
}

/* The value spelled `name`, or -1. */
static int value_of(const char *const *names, unsigned count, const char *name)
{
    for (unsigned v = 0; name && v < count; v++)
        if (names[v] && strcmp(names[v], name) == 0) return (int)v;
    return -1;
}

#define COUNT(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

/* Defines q7d_<what>_name and q7d_<what>_from_name over <what>_names. */
#define NAME_FUNCTIONS(what, type)                                         \
    const char *q7d_##what##_name(type v) { return name_at(what##_names, COUNT(what##_names), (unsigned)v); } \
    bool q7d_##what##_from_name(const char *name, type *out)               \
    {                                                                      \
        int v = value_of(what##_names, COUNT(what##_names), name);         \
        if (v < 0) return false;                                           \
        *out = (type)v;                                                    \
        return true;                                                       \
    }

NAME_FUNCTIONS(cell_state, q7d_cell_state)
NAME_FUNCTIONS(out_state, q7d_out_state)
NAME_FUNCTIONS(crash_kind, q7d_crash_kind)
NAME_FUNCTIONS(oracle_kind, q7d_oracle_kind)

bool q7d_corpus_from_name(const char *name, q7d_corpus *out)
{
    for (unsigned c = 0; name && c < Q7D_CORPUS_COUNT; c++)
        if (strcmp(q7d_corpus_name((q7d_corpus)c), name) == 0) {
            *out = (q7d_corpus)c;
            return true;
        }
    return false;
}
