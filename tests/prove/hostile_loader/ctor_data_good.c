/* SPDX-License-Identifier: BSD-3-Clause */
/* A control: a constructor that sets up writable data no leaf reads (a
 * counter in .bss, a flag in .data) and a leaf that reads a .rodata table:
 * proven. */
#include <stdint.h>
#include "table_leaf.h"

RIGHT_TABLE;
EXPORT volatile uint32_t q7hostile_loads;
EXPORT volatile uint32_t q7hostile_flag = 7;

__attribute__((constructor)) static void ctor(void)
{
    q7hostile_loads++;
    q7hostile_flag = 9;
}

TABLE_LEAF
