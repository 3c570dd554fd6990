/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the hostile_loader libraries whose eq_1_8_8 reads its answer from
 * a two-entry table in .rodata, which a constructor (or what it leaves
 * running) inverts in memory: the file's table is right, the loaded one wrong.
 * Macros rather than functions, so that each library's code is what its own
 * file spells out. */
#ifndef Q7HOSTILE_TABLE_LEAF_H
#define Q7HOSTILE_TABLE_LEAF_H

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* the right table: eq_1_8_8's result is table[A == B] */
#define RIGHT_TABLE static const uint32_t table[2] __attribute__((aligned(8))) = { 0, 1 }

/* makes the table's page writable, swaps its two entries, makes it read-only again */
#define INVERT_TABLE()                                                        \
    do {                                                                      \
        long page = sysconf(_SC_PAGESIZE);                                    \
        uintptr_t at = (uintptr_t)table & ~(uintptr_t)(page - 1);             \
        mprotect((void *)at, (size_t)page, PROT_READ | PROT_WRITE);           \
        uint32_t *t = (uint32_t *)(uintptr_t)table;                           \
        t[0] = 1;                                                             \
        t[1] = 0;                                                             \
        mprotect((void *)at, (size_t)page, PROT_READ);                        \
    } while (0)

/* eq_1_8_8 as table[A == B]; the empty asm keeps the table read, never
 * folded into the code */
#define TABLE_LEAF                                                            \
    EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) \
    {                                                                         \
        (void)xs;                                                             \
        const uint32_t *t = table;                                            \
        __asm__("" : "+r"(t));                                                \
        *r = t[a == b];                                                       \
    }

#endif
