/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred batch evaluation: the model over arrays and over generated operand
 * ranges, with SIMD kernels chosen at run time.
 *
 * q7_leaf_eval_batch (declared in q7pred.h) evaluates n calls given as
 * structure of arrays. The range API below evaluates a generated range of
 * cases without the caller materialising the inputs. Every kernel equals
 * leaf->eval call for call (tests/test_batch_*.c prove it per path).
 *
 * Paths: "avx512" (AVX512F/BW/VL/DQ) and "avx2" on x86-64, and "portable"
 * on every CPU (plain C loops that the compiler vectorizes). "auto" picks
 * the widest the CPU has. Q7PRED_BATCH=<path> in the environment, or
 * q7_batch_select(), forces one.
 */
#ifndef Q7PRED_BATCH_H
#define Q7PRED_BATCH_H

#include "q7pred.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The contract is q7pred.h's: NULL or an unknown name or leaf gets the
 * answer "none" (false); word arrays are preconditions, checked in debug
 * builds (docs/api-contract.md). */

/* Selects a path by name ("auto", "avx512", "avx2", "portable"). False,
 * changing nothing, if the name is NULL or unknown or the CPU lacks the
 * path's instructions. */
Q7_API bool q7_batch_select(const char *path);
/* The name of the selected path, the one that runs. */
Q7_API const char *q7_batch_path(void);
/* Whether this CPU can run the named path (false for NULL). */
Q7_API bool q7_batch_path_supported(const char *path);
/* Whether the current path has a kernel for this leaf (else it runs the
 * scalar leaf per call: movfsv and movvfs on every path); false for a leaf
 * that is none (NULL or not a row). */
Q7_API bool q7_batch_has_kernel(const q7_leaf *leaf);

/* q7_leaf_eval_batch over 16-bit input arrays: input word w of call i is
 * in[w][i], zero-extended to 32 bits. For callers whose operands are kept
 * as 16-bit patterns (fp16, int16). Equal, call for call, to leaf->eval on
 * the widened words. On the avx512 and avx2 paths the kernels of fp16
 * compares and classify and of integer compares read the arrays as they
 * are, and a batch of theirs of 2^18 calls or more writes its result with
 * streaming stores (past the caches, which keep the inputs;
 * docs/performance.md); every other leaf, the portable path, and the calls
 * a kernel leaves are widened in blocks of 256 calls into
 * q7_leaf_eval_batch. The output array of an AUX word (the ordered
 * compares' second word, always 0) may be NULL: it is then not written.
 * Preconditions as q7_leaf_eval_batch's, except that no output array may
 * overlap an input array. */
Q7_API void q7_leaf_eval_batch16(const q7_leaf *leaf, size_t n,
                                 const uint16_t *const in[], uint32_t *const out[]);

/*
 * A generated operand range: cases [lo, hi). Case i has
 *   binary leaves: A = i >> b_bits, B = i & (2^b_bits - 1)
 *   unary leaves (b_bits = 0): A = i
 * and every other input word from fixed[] (e.g. C, the predicate of a
 * predicated-tail leaf). With b_bits = operand_bits this is exactly the
 * exhaustive case space `q7pred verify --corpus exhaustive` walks; "A fixed, B over
 * [b0, b1)" is lo = A << b_bits | b0, hi = A << b_bits | b1.
 * Only leaves of up to three inputs, each a one-word register
 * (q7_shape_info's value_inputs), have ranges; b_bits is 0 exactly for the
 * one-input leaves, at most 32, and A must fit in 32 bits.
 */
typedef struct q7_range {
    uint64_t lo, hi;
    unsigned b_bits;
    uint32_t fixed[Q7_MAX_WORDS];
} q7_range;

/* Whether q7_leaf_eval_range accepts this leaf and range: false for a
 * NULL range, a leaf that is none, and whatever the rules above refuse. */
Q7_API bool q7_range_valid(const q7_leaf *leaf, const q7_range *r);
/* Writes case i's output words to out[w][i - r->lo]. Inputs are generated
 * in cache-sized blocks. Returns false (writing nothing) if the range is
 * not valid for the leaf. Precondition, checked in debug builds: out[w]
 * for w < out_words each point to hi - lo words (for an empty range out
 * may be NULL). */
Q7_API bool q7_leaf_eval_range(const q7_leaf *leaf, const q7_range *r, uint32_t *const out[]);

#ifdef __cplusplus
}
#endif
#endif
