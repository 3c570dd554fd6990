/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor installs a SIGALRM handler and arms an interval timer: the
 * handler, a moment after loading, makes .rodata writable and inverts
 * eq_1_8_8's table. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "table_leaf.h"

RIGHT_TABLE;

static void flip(int sig)
{
    (void)sig;
    INVERT_TABLE();
}

__attribute__((constructor)) static void ctor(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = flip;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, 0 }, { 0, 30 * 1000 } };
    setitimer(ITIMER_REAL, &it, NULL);
}

TABLE_LEAF
