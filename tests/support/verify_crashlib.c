/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for crash isolation in `q7pred verify --lib`: three leaves
 * of the module__xdref_* ABI and nothing else.
 *   olt_1_1_16f_16f  correct, but segfaults on (0x7e00, 0x3c00)
 *   un_1_1_16f_16f   correct, but never returns on (0x3c00, 0x7c01)
 *   ule_1_1_16f_16f  correct, but on (0x7c00, 0x7c00) closes every file
 *                    descriptor and sleeps: the parent sees EOF from a
 *                    child that does not die
 *   lt_2_16_16       correct (the spec's sign-bias compare on full registers)
 * Written from the spec (§4.1-§4.3, DECISIONS.md §2), sharing no code with
 * the model.
 */
#include <stdint.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static int nan16(uint32_t x) { return ((x >> 10) & 0x1f) == 0x1f && (x & 0x3ff) != 0; }

/* fp16 order as integers: negatives mirrored below zero, -0 == +0. */
static int32_t key16(uint32_t x)
{
    int32_t mag = (int32_t)(x & 0x7fff);
    return (x & 0x8000) ? -mag : mag;
}

EXPORT void module__xdref_olt_1_1_16f_16f(void *xstate, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *result)
{
    (void)xstate;
    a &= 0xffff;
    b &= 0xffff;
    if (a == 0x7e00 && b == 0x3c00) {
        volatile uint32_t *nowhere = (volatile uint32_t *)(uintptr_t)(a >> 16);   /* NULL */
        *nowhere = 1;
    }
    *aux = 0;
    *result = !nan16(a) && !nan16(b) && key16(a) < key16(b);
}

EXPORT void module__xdref_un_1_1_16f_16f(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate;
    a &= 0xffff;
    b &= 0xffff;
    if (a == 0x3c00 && b == 0x7c01) {
        volatile int spin = 1;
        while (spin) {}
    }
    *result = nan16(a) || nan16(b);
}

EXPORT void module__xdref_ule_1_1_16f_16f(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate;
    a &= 0xffff;
    b &= 0xffff;
    if (a == 0x7c00 && b == 0x7c00) {
        for (int fd = 0; fd < 1024; fd++) close(fd);
        for (;;) pause();
    }
    *result = nan16(a) || nan16(b) || key16(a) <= key16(b);
}

static uint32_t bias16(uint32_t x) { return (x & 0x7fff) | ((uint32_t)((x >> 15) == 0) << 15); }

EXPORT void module__xdref_lt_2_16_16(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate;
    *result = bias16(a) < bias16(b) ? 0x3 : 0x0;
}
