/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor leaves a thread that, a moment after loading, makes .rodata
 * writable and inverts eq_1_8_8's table: the image right after loading is
 * the file's, a call a little later is wrong. */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include "table_leaf.h"

RIGHT_TABLE;

static void *later(void *arg)
{
    (void)arg;
    struct timespec d = { 0, 50 * 1000 * 1000 };
    nanosleep(&d, NULL);
    INVERT_TABLE();
    for (;;) pause();
    return NULL;
}

__attribute__((constructor)) static void ctor(void)
{
    pthread_t t;
    pthread_create(&t, NULL, later, NULL);
}

TABLE_LEAF
