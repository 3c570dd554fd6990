/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The leaves of DECISIONS.md §1, written out from its table (not from the
 * leaf table under test): SPEC_LEAVES(X) is X(group, suffix, provenance)
 * for every one, in the table's order and groups, with its provenance
 * column (observed, or inferred and why: DECISIONS.md). This is the one
 * place the tests have the leaf list, and its length is the one place
 * they have the leaf count: test_symbols.c checks the list against the
 * table's rules and against the library, and every other test counts
 * this list (C: SPEC_LEAF_COUNT; shell: tests/support/spec_leaves.sh; Python:
 * tests/python/conftest.py), each row being one line `    X(...)`.
 * Groups (DECISIONS.md §1's rows; its "(15)" for ordered fp is 3 x 3 = 9):
 *   INT_COMPARE, ORDERED_FP, UNORDERED_FP, FP_TAIL, CLASSIFY,
 *   MASK_LOGIC (64-bit), MASK_BR (1-bit BR), BITKILL, FS_COMPARE,
 *   BIT_PLANE, BIT_SPREAD, BIT_PACK, FS_REDUCE
 */
#ifndef Q7_TESTS_SPEC_LEAVES_H
#define Q7_TESTS_SPEC_LEAVES_H

#include <stddef.h>
#include <string.h>

#define SPEC_LEAVES(X) \
    X(INT_COMPARE, lt_1_8_8, OBSERVED)                           \
    X(INT_COMPARE, lt_2_16_16, OBSERVED)                         \
    X(INT_COMPARE, lt_4_32_32, OBSERVED)                         \
    X(INT_COMPARE, ltu_1_8_8, OBSERVED)                          \
    X(INT_COMPARE, ltu_2_16_16, OBSERVED)                        \
    X(INT_COMPARE, ltu_4_32_32, OBSERVED)                        \
    X(INT_COMPARE, le_1_8_8, OBSERVED)                           \
    X(INT_COMPARE, le_2_16_16, OBSERVED)                         \
    X(INT_COMPARE, le_4_32_32, OBSERVED)                         \
    X(INT_COMPARE, leu_1_8_8, OBSERVED)                          \
    X(INT_COMPARE, leu_2_16_16, OBSERVED)                        \
    X(INT_COMPARE, leu_4_32_32, OBSERVED)                        \
    X(INT_COMPARE, eq_1_8_8, OBSERVED)                           \
    X(INT_COMPARE, eq_2_16_16, OBSERVED)                         \
    X(INT_COMPARE, eq_4_32_32, OBSERVED)                         \
    X(INT_COMPARE, neq_1_8_8, OBSERVED)                          \
    X(INT_COMPARE, neq_2_16_16, OBSERVED)                        \
    X(INT_COMPARE, neq_4_32_32, OBSERVED)                        \
    X(ORDERED_FP, oeq_1_1_16f_16f, OBSERVED)                     \
    X(ORDERED_FP, oeq_1_2_16f_16f, INFERRED)                     \
    X(ORDERED_FP, oeq_1_4_32f_32f, INFERRED)                     \
    X(ORDERED_FP, olt_1_1_16f_16f, OBSERVED)                     \
    X(ORDERED_FP, olt_1_2_16f_16f, INFERRED)                     \
    X(ORDERED_FP, olt_1_4_32f_32f, INFERRED)                     \
    X(ORDERED_FP, ole_1_1_16f_16f, OBSERVED)                     \
    X(ORDERED_FP, ole_1_2_16f_16f, INFERRED)                     \
    X(ORDERED_FP, ole_1_4_32f_32f, INFERRED)                     \
    X(UNORDERED_FP, un_1_1_16f_16f, OBSERVED)                    \
    X(UNORDERED_FP, un_1_2_16f_16f, INFERRED)                    \
    X(UNORDERED_FP, un_1_4_32f_32f, INFERRED)                    \
    X(UNORDERED_FP, ueq_1_1_16f_16f, INFERRED)                   \
    X(UNORDERED_FP, ueq_1_2_16f_16f, INFERRED)                   \
    X(UNORDERED_FP, ueq_1_4_32f_32f, INFERRED)                   \
    X(UNORDERED_FP, ult_1_1_16f_16f, INFERRED)                   \
    X(UNORDERED_FP, ult_1_2_16f_16f, INFERRED)                   \
    X(UNORDERED_FP, ult_1_4_32f_32f, INFERRED)                   \
    X(UNORDERED_FP, ule_1_1_16f_16f, INFERRED)                   \
    X(UNORDERED_FP, ule_1_2_16f_16f, INFERRED)                   \
    X(UNORDERED_FP, ule_1_4_32f_32f, INFERRED)                   \
    X(FP_TAIL, oeq_1_2_16f_16f_2f_t, INFERRED)                   \
    X(FP_TAIL, olt_1_2_16f_16f_2f_t, INFERRED)                   \
    X(FP_TAIL, ole_1_2_16f_16f_2f_t, INFERRED)                   \
    X(FP_TAIL, un_1_2_16f_16f_2f_t, INFERRED)                    \
    X(FP_TAIL, ueq_1_2_16f_16f_2f_t, INFERRED)                   \
    X(FP_TAIL, ult_1_2_16f_16f_2f_t, INFERRED)                   \
    X(FP_TAIL, ule_1_2_16f_16f_2f_t, INFERRED)                   \
    X(FP_TAIL, oeq_1_4_32f_32f_4f_t, INFERRED)                   \
    X(FP_TAIL, olt_1_4_32f_32f_4f_t, INFERRED)                   \
    X(FP_TAIL, ole_1_4_32f_32f_4f_t, INFERRED)                   \
    X(FP_TAIL, un_1_4_32f_32f_4f_t, INFERRED)                    \
    X(FP_TAIL, ueq_1_4_32f_32f_4f_t, INFERRED)                   \
    X(FP_TAIL, ult_1_4_32f_32f_4f_t, INFERRED)                   \
    X(FP_TAIL, ule_1_4_32f_32f_4f_t, INFERRED)                   \
    X(CLASSIFY, clsfy_16f_16f, OBSERVED)                         \
    X(CLASSIFY, clsfy_32f_32f, OBSERVED)                         \
    X(MASK_LOGIC, andb_64_64_64, OBSERVED)                       \
    X(MASK_LOGIC, orb_64_64_64, OBSERVED)                        \
    X(MASK_LOGIC, xorb_64_64_64, OBSERVED)                       \
    X(MASK_LOGIC, andnotb_64_64_64, OBSERVED)                    \
    X(MASK_LOGIC, ornotb_64_64_64, OBSERVED)                     \
    X(MASK_LOGIC, notb_64_64, INFERRED)                          \
    X(MASK_BR, notb1_1_1, INFERRED)                              \
    X(MASK_BR, andnotb1_1_1_1, INFERRED)                         \
    X(MASK_BR, ornotb1_1_1_1, INFERRED)                          \
    X(BITKILL, bitkillt_8_1, OBSERVED)                           \
    X(BITKILL, bitkillt_16_2, OBSERVED)                          \
    X(BITKILL, bitkillt_32_4, OBSERVED)                          \
    X(BITKILL, bitkillf_16_1, OBSERVED)                          \
    X(BITKILL, bitkillf_16_2, OBSERVED)                          \
    X(BITKILL, bitkillf_32_4, OBSERVED)                          \
    X(FS_COMPARE, fs0ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs1ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs2ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs3ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs4ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs5ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs6ltu_64_8_8, OBSERVED)                       \
    X(FS_COMPARE, fs7ltu_64_8_8, OBSERVED)                       \
    X(BIT_PLANE, extbi_1_8_32, OBSERVED)                         \
    X(BIT_PLANE, extbi_2_16_32, OBSERVED)                        \
    X(BIT_PLANE, extbi_4_32_32, OBSERVED)                        \
    X(BIT_PLANE, injbi_8_8_1_32, OBSERVED)                       \
    X(BIT_SPREAD, movfsv_64_64_64_64_64_64_64_64_512, INFERRED)  \
    X(BIT_PACK, movvfs_512_64_64_64_64_64_64_64_64, INFERRED)    \
    X(FS_REDUCE, borfs_2n_64_64_64_64_64_64_64_64_64, OBSERVED)  \
    X(FS_REDUCE, bnorfs_2n_64_64_64_64_64_64_64_64_64, INFERRED)

/* The rows as data, and how many there are. */
typedef struct spec_leaf {
    const char *group, *suffix;
    int inferred;               /* the provenance column: 0 observed, 1 inferred */
} spec_leaf;
#define SPEC_OBSERVED 0
#define SPEC_INFERRED 1
#define SPEC_LEAF_ROW_(group, suffix, provenance) { #group, #suffix, SPEC_##provenance },
static const spec_leaf spec_leaves[] __attribute__((unused)) = { SPEC_LEAVES(SPEC_LEAF_ROW_) };
#undef SPEC_LEAF_ROW_
enum { SPEC_LEAF_COUNT = sizeof spec_leaves / sizeof spec_leaves[0] };

/* How many rows of `group` (NULL: every group) have a suffix that starts
 * with `head` and ends with `tail` (NULL: any), for the counts the tests
 * derive from the list. */
static inline size_t spec_leaves_where(const char *group, const char *head, const char *tail)
{
    size_t n = 0;
    for (size_t i = 0; i < SPEC_LEAF_COUNT; i++) {
        const char *s = spec_leaves[i].suffix;
        size_t ls = strlen(s), lt = tail ? strlen(tail) : 0;
        n += (!group || strcmp(spec_leaves[i].group, group) == 0) && (!head || strncmp(s, head, strlen(head)) == 0)
             && (!tail || (ls >= lt && strcmp(s + ls - lt, tail) == 0));
    }
    return n;
}

#endif
