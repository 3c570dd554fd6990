/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the probe's ELF reader (q7p_elf_symbols_image): any
 * bytes as a library file. A file read gives names that each start with
 * the prefix and hold no NUL, at most Q7P_ELF_MAX_NAMES of them, each
 * with a file offset of 0 or a range inside the file; a file refused gets
 * one line naming it (or "out of memory") and no names. Never a read
 * outside the bytes, a crash, a hang or a leak. Run by `make fuzz
 * TARGET=elf` (longer) and briefly by `make check`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/elf_symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char prefix[] = "module__xdref_", path[] = "fuzz.so";
    /* a copy of exactly size bytes: ASan sees any read past the end */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    q7p_symbols s;
    char err[1024] = "";
    if (q7p_elf_symbols_image(path, copy, size, prefix, &s, err, sizeof err)) {
        if (s.count > Q7P_ELF_MAX_NAMES) abort();
        for (size_t i = 0; i < s.count; i++) {
            if (strncmp(s.name[i], prefix, sizeof prefix - 1) != 0) abort();
            if (s.offset[i] && (s.offset[i] > size || s.size[i] > size - s.offset[i])) abort();
        }
        q7p_symbols_free(&s);
    } else if (s.count || s.name || !err[0] || strchr(err, '\n') ||
               (strncmp(err, "'fuzz.so'", 9) != 0 && strcmp(err, "out of memory") != 0)) {
        abort();
    }
    free(copy);
    return 0;
}
