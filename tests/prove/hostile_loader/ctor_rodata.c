/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor makes .rodata writable (mprotect), inverts the table that
 * eq_1_8_8 reads and makes it read-only again: the file's table is right,
 * the loaded one wrong. */
#include <stdint.h>
#include <unistd.h>
#include "table_leaf.h"

RIGHT_TABLE;

static void flip(void)
{
    INVERT_TABLE();
}

#ifdef VIA_DT_INIT
void hostile_init(void) { flip(); }   /* -Wl,-init=hostile_init: DT_INIT, not .init_array */
#else
__attribute__((constructor)) static void ctor(void) { flip(); }
#endif

TABLE_LEAF
