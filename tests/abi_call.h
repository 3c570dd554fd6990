/*
 * One call of an exported leaf, by shape, with every output word poisoned
 * (0xdeadbeef) so that a leaf which leaves its result unwritten shows; the
 * ordered shape also checks that its aux word is written 0 and never holds
 * the result (spec §3). Include after check.h.
 */
#ifndef Q7_TESTS_ABI_CALL_H
#define Q7_TESTS_ABI_CALL_H

#include "q7pred_xdref.h"

static inline uint32_t abi_bin(q7_xdref_BIN_fn *f, uint32_t a, uint32_t b)
{
    uint32_t r = 0xdeadbeef;
    f(NULL, a, b, &r);
    return r;
}

static inline uint32_t abi_ord(q7_xdref_ORD_fn *f, uint32_t a, uint32_t b)
{
    uint32_t aux = 0xdeadbeef, r = 0xdeadbeef;
    f(NULL, a, b, &aux, &r);
    CHECK_EQF(aux, 0, "aux word of an ordered leaf");
    return r;
}

static inline uint32_t abi_ter(q7_xdref_TER_fn *f, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = 0xdeadbeef;
    f(NULL, a, b, c, &r);
    return r;
}

static inline uint32_t abi_un(q7_xdref_UN_fn *f, uint32_t a)
{
    uint32_t r = 0xdeadbeef;
    f(NULL, a, &r);
    return r;
}

/* A two-operand compare leaf, whichever of the BIN and ORD shapes it has. */
#define ABI_CALL2(fn, a, b) \
    _Generic(&(fn), q7_xdref_BIN_fn *: abi_bin, q7_xdref_ORD_fn *: abi_ord)(&(fn), a, b)

#endif
