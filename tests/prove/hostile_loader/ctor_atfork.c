/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor registers a fork handler that, in every forked child,
 * makes .rodata writable and inverts eq_1_8_8's table: a program that
 * forks and calls the leaf in the child gets wrong answers. */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include "table_leaf.h"

RIGHT_TABLE;

static void in_child(void)
{
    INVERT_TABLE();
}

__attribute__((constructor)) static void ctor(void) { pthread_atfork(NULL, NULL, in_child); }

TABLE_LEAF
