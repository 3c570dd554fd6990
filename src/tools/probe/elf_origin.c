/* SPDX-License-Identifier: BSD-3-Clause */
/* The dependencies a library finds through $ORIGIN (elf_symbols.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_symbols.h"

enum { PT_LOAD = 1, PT_DYNAMIC = 2, DT_NULL = 0, DT_NEEDED = 1, DT_STRTAB = 5, DT_RPATH = 15, DT_RUNPATH = 29,
       MAX_DYN = 4096, MAX_NEEDED = 64 };

static bool field(int fd, uint64_t off, unsigned len, uint64_t *v)
{
    unsigned char b[8] = { 0 };
    if (len > 8 || off > (uint64_t)INT64_MAX || pread(fd, b, len, (off_t)off) != (ssize_t)len) return false;
    *v = 0;
    for (unsigned i = 0; i < len; i++) *v |= (uint64_t)b[i] << (8 * i);
    return true;
}

/* The file offset of vaddr through the PT_LOADs; false if none holds it. */
static bool offset_of(int fd, uint64_t phoff, uint64_t phnum, uint64_t vaddr, uint64_t *off)
{
    for (uint64_t i = 0; i < phnum; i++) {
        uint64_t p = phoff + 56 * i, type, o, va, filesz;
        if (!field(fd, p, 4, &type) || !field(fd, p + 8, 8, &o) || !field(fd, p + 16, 8, &va) ||
            !field(fd, p + 32, 8, &filesz))
            return false;
        if (type == PT_LOAD && vaddr >= va && vaddr - va < filesz) {
            *off = o + (vaddr - va);
            return true;
        }
    }
    return false;
}

/* Appends to out each entry of the path list at file offset `at` that
 * names $ORIGIN (or ${ORIGIN}), with origin put in. */
static void expand(int fd, uint64_t at, const char *origin, char *out, size_t size)
{
    char list[4096];
    ssize_t n = pread(fd, list, sizeof list - 1, (off_t)at);
    if (n <= 0) return;
    list[n] = '\0';
    for (char *save = NULL, *e = strtok_r(list, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        const char *tail = !strncmp(e, "$ORIGIN", 7) ? e + 7 : !strncmp(e, "${ORIGIN}", 9) ? e + 9 : NULL;
        if (!tail || (*tail && *tail != '/')) continue;
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s%s", used ? ":" : "", origin, tail);
    }
}

/* A string of the file at `at`, into buf; false if it cannot be read whole. */
static bool string_at(int fd, uint64_t at, char *buf, size_t size)
{
    ssize_t n = pread(fd, buf, size - 1, (off_t)at);
    if (n <= 0) return false;
    buf[n] = '\0';
    return strlen(buf) < size - 1;
}

bool q7p_elf_origin_preloads(const char *path, const char *origin, char ***preloads, unsigned *n)
{
    *preloads = NULL;
    *n = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return true;
    uint64_t phoff, phnum, dyn = 0, strtab = 0, rp = UINT64_MAX, rn = UINT64_MAX, str = 0, needed[MAX_NEEDED];
    unsigned nneeded = 0;
    bool ok = field(fd, 32, 8, &phoff) && field(fd, 56, 2, &phnum);
    for (uint64_t i = 0; ok && i < phnum && !dyn; i++) {
        uint64_t type;
        if (field(fd, phoff + 56 * i, 4, &type) && type == PT_DYNAMIC) ok = field(fd, phoff + 56 * i + 8, 8, &dyn);
    }
    for (unsigned k = 0; ok && dyn && k < MAX_DYN; k++) {
        uint64_t tag, val;
        if (!field(fd, dyn + 16 * k, 8, &tag) || !field(fd, dyn + 16 * k + 8, 8, &val) || tag == DT_NULL) break;
        if (tag == DT_STRTAB) strtab = val;
        else if (tag == DT_RPATH) rp = val;
        else if (tag == DT_RUNPATH) rn = val;
        else if (tag == DT_NEEDED && nneeded < MAX_NEEDED) needed[nneeded++] = val;
    }
    char dirs[4096] = "", name[256], file[PATH_MAX];
    /* the loader ignores DT_RPATH beside DT_RUNPATH */
    if (ok && strtab && offset_of(fd, phoff, phnum, strtab, &str) && (rn != UINT64_MAX || rp != UINT64_MAX))
        expand(fd, str + (rn != UINT64_MAX ? rn : rp), origin, dirs, sizeof dirs);
    for (unsigned k = 0; dirs[0] && k < nneeded; k++) {
        if (!string_at(fd, str + needed[k], name, sizeof name) || strchr(name, '/')) continue;
        char list[sizeof dirs];
        memcpy(list, dirs, sizeof list);
        for (char *save = NULL, *d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
            if (snprintf(file, sizeof file, "%s/%s", d, name) >= (int)sizeof file || access(file, R_OK) != 0) continue;
            char **grown = realloc(*preloads, (*n + 1) * sizeof *grown);
            char *copy = strdup(file);
            if (!grown || !copy) {
                free(copy);
                if (grown) *preloads = grown;
                close(fd);
                return false;
            }
            *preloads = grown;
            (*preloads)[(*n)++] = copy;
            break;
        }
    }
    close(fd);
    return true;
}
