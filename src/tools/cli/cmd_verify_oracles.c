/* SPDX-License-Identifier: BSD-3-Clause */
/* The oracles of `q7pred verify` on its command line, from their table
 * (verify/oracles.def): the names --oracles takes, the libraries, and the
 * help's lines on them (cmd_verify.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_verify.h"
#include "verify/verify.h"

int cli_verify_add_lib(q7d_options *o, const char *path)
{
    if (!*path) return cli_usage_error("verify: --lib needs a library path");
    if (o->nlibs == Q7D_MAX_LIBS) return cli_usage_error("verify: at most %d libraries", Q7D_MAX_LIBS);
    for (unsigned i = 0; i < o->nlibs; i++)
        if (strcmp(o->libs[i], path) == 0) return cli_usage_error("verify: library '%s' given twice", path);
    if (access(path, R_OK) != 0)
        return cli_usage_error("verify: cannot read library '%s': %s", path, strerror(errno));
    o->libs[o->nlibs++] = path;
    return CLI_OK;
}

void cli_verify_oracle_list(char *buf, size_t size, bool defaults)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++) {
        const q7d_oracle_info *info = q7d_oracle_info_of((q7d_oracle_kind)k);
        if (defaults ? !info->default_on : info->columns == Q7D_COLUMNS_CORPUS) continue;
        int w = snprintf(buf + used, size - used, "%s%s%s%s", used ? defaults ? "," : ", " : "", info->name,
                         !defaults && info->arg ? ":" : "", !defaults && info->arg ? info->arg : "");
        if (w < 0 || (size_t)w >= size - used) return;
        used += (size_t)w;
    }
}

/* A CORPUS kind's column comes from its corpus, never from --oracles. */
int cli_verify_add_oracle(q7d_options *o, const char *item)
{
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++) {
        const q7d_oracle_info *info = q7d_oracle_info_of((q7d_oracle_kind)k);
        size_t len = strlen(info->name);
        if (info->columns == Q7D_COLUMNS_CORPUS || strncmp(item, info->name, len) != 0) continue;
        if (item[len] != (info->arg ? ':' : '\0')) continue;
        switch (info->columns) {
        case Q7D_COLUMNS_ALWAYS:
        case Q7D_COLUMNS_CORPUS:
            return CLI_OK;   /* always there (sem: the reference) */
        case Q7D_COLUMNS_NAMED:
            o->use[k] = o->named[k] = true;
            return CLI_OK;
        case Q7D_COLUMNS_PER_PATH:
            return cli_verify_add_lib(o, item + len + 1);
        }
    }
    char names[256];
    cli_verify_oracle_list(names, sizeof names, false);
    return cli_usage_error("verify: unknown oracle '%s' (oracles: %s)", item, names);
}

void cli_verify_oracle_heading(char *text, size_t size)
{
    char defaults[256];
    cli_verify_oracle_list(defaults, sizeof defaults, true);
    size_t used = (size_t)snprintf(text, size, "Oracles (default %s", defaults);
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++) {
        const q7d_oracle_info *info = q7d_oracle_info_of((q7d_oracle_kind)k);
        if (info->help && used < size) used += (size_t)snprintf(text + used, size - used, "; %s", info->help);
    }
    if (used < size) snprintf(text + used, size - used, "):");
}

void cli_verify_oracle_describe(char *text, size_t size)
{
    char names[256];
    const char *reference = "";
    cli_verify_oracle_list(names, sizeof names, false);
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++)
        if (q7d_oracle_info_of((q7d_oracle_kind)k)->columns == Q7D_COLUMNS_ALWAYS)
            reference = q7d_oracle_info_of((q7d_oracle_kind)k)->name;
    snprintf(text, size, "comma list of %s (%s is always the reference)", names, reference);
}
