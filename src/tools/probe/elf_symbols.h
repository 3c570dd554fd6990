/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exported function names of a shared library, read from the file's
 * dynamic symbol table (internal): the probe lists what a library really
 * exports instead of asking dlsym for the names it already knows.
 */
#ifndef Q7_PROBE_ELF_SYMBOLS_H
#define Q7_PROBE_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct q7p_symbols {
    char **name;
    unsigned long long *offset;   /* where the symbol's bytes start in the file (0: not in a loaded segment) */
    unsigned long long *size;     /* its st_size */
    size_t count;
    unsigned machine;             /* e_machine: 62 for x86-64 */
} q7p_symbols;

/* The most names read: a file with more is refused (the ABI has fewer
 * than a hundred; a file of millions would keep the probe busy for
 * minutes listing them). */
#define Q7P_ELF_MAX_NAMES 65536

/* Reads the defined global or weak symbols of a 64-bit little-endian ELF
 * file (its .dynsym, found through the dynamic section of its program
 * headers, else its section headers) whose names start with `prefix`.
 * false with the reason in err (not ELF, another class or byte order, a
 * table that points outside the file, more than Q7P_ELF_MAX_NAMES names). */
bool q7p_elf_symbols(const char *path, const char *prefix, q7p_symbols *out, char *err, size_t errsize);
/* The same over a file already in memory (size bytes at data; path only
 * names it in err): any bytes at all, which it never reads outside of. */
bool q7p_elf_symbols_image(const char *path, const void *data, size_t size, const char *prefix, q7p_symbols *out,
                           char *err, size_t errsize);
void q7p_symbols_free(q7p_symbols *s);

/* The dependencies (DT_NEEDED) that the library at path finds through an
 * entry of its DT_RUNPATH (else DT_RPATH) naming $ORIGIN or ${ORIGIN}, with
 * `origin` put in (the directory its user loads it from): each as a file
 * path, into a malloc'd array (*n of them, none when there is none). A copy
 * of the library loaded from elsewhere is loaded after these, so that its
 * dependencies are the ones the library itself would load. false when out
 * of memory. */
bool q7p_elf_origin_preloads(const char *path, const char *origin, char ***preloads, unsigned *n);

#endif
