/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_binary.sh): the fp
 * compare, tail and classify leaves written with C's own float and
 * _Float16 operators, as a vendor library might compute them, so their
 * machine code is the float unit's (comiss, ucomiss, cvtss2sd) and
 * libgcc's __extendhfsf2 (linked in: -static-libgcc), not the integer
 * code of src/lib/model. Each must be proven, not refused.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static float f32(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static float f16(uint32_t x)
{
    uint16_t v = (uint16_t)x;
    _Float16 h;
    memcpy(&h, &v, sizeof h);
    return (float)h;
}

/* The seven relations in C: an ordered one is false on NaN, an unordered
 * one true (C's !(a >= b) is "unordered or less"). */
#define REL_oeq(a, b) ((a) == (b))
#define REL_olt(a, b) ((a) < (b))
#define REL_ole(a, b) ((a) <= (b))
#define REL_un(a, b) isunordered((a), (b))
#define REL_ueq(a, b) (!((a) < (b)) && !((a) > (b)))
#define REL_ult(a, b) (!((a) >= (b)))
#define REL_ule(a, b) (!((a) > (b)))

#define ORDERED(rel, suffix, conv, ones)                                                                    \
    EXPORT void module__xdref_##rel##_##suffix(void *xs, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *r) \
    {                                                                                                       \
        (void)xs;                                                                                           \
        *aux = 0;                                                                                           \
        *r = REL_##rel(conv(a), conv(b)) ? (ones) : 0;                                                      \
    }
#define UNORDERED(rel, suffix, conv, ones)                                                    \
    EXPORT void module__xdref_##rel##_##suffix(void *xs, uint32_t a, uint32_t b, uint32_t *r) \
    {                                                                                         \
        (void)xs;                                                                             \
        *r = REL_##rel(conv(a), conv(b)) ? (ones) : 0;                                        \
    }
#define TAIL(rel, suffix, conv, ones)                                                                     \
    EXPORT void module__xdref_##rel##_##suffix(void *xs, uint32_t a, uint32_t b, uint32_t pred, uint32_t *r) \
    {                                                                                                     \
        (void)xs;                                                                                         \
        *r = (pred & 1) && REL_##rel(conv(a), conv(b)) ? (ones) : 0;                                      \
    }

#define FORMS(M, rel)                       \
    M(rel, 1_1_16f_16f, f16, 1)             \
    M(rel, 1_2_16f_16f, f16, 3)             \
    M(rel, 1_4_32f_32f, f32, 0xf)
#define TAILS(rel)                          \
    TAIL(rel, 1_2_16f_16f_2f_t, f16, 3)     \
    TAIL(rel, 1_4_32f_32f_4f_t, f32, 0xf)

FORMS(ORDERED, oeq) FORMS(ORDERED, olt) FORMS(ORDERED, ole)
FORMS(UNORDERED, un) FORMS(UNORDERED, ueq) FORMS(UNORDERED, ult) FORMS(UNORDERED, ule)
TAILS(oeq) TAILS(olt) TAILS(ole) TAILS(un) TAILS(ueq) TAILS(ult) TAILS(ule)
