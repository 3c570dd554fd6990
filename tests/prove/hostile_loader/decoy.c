/* SPDX-License-Identifier: BSD-3-Clause */
/* The base of the .dynsym disagreements (patch_elf.py dup-dynsym,
 * name-outside): eq_1_8_8 is wrong; q7hostile_decoy<k> are right eq_1_8_8s
 * under other names, one of which (the last in .dynsym) the patch gives
 * eq_1_8_8's name too. The string kept in .rodata is a copy of the name
 * outside .dynstr. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a != b; }
#define DECOY(k) \
    EXPORT void q7hostile_decoy##k(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
DECOY(0) DECOY(1) DECOY(2) DECOY(3) DECOY(4) DECOY(5) DECOY(6) DECOY(7)
EXPORT const char q7hostile_name[] = "module__xdref_eq_1_8_8";
