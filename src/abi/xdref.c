/*
 * The exported module__xdref_* leaves, generated from the leaf table: each
 * body unpacks its shape's arguments, evaluates the row's semantics and
 * stores the result where the shipped leaf does.
 */
#include "q7pred_xdref.h"
#include "words.h"

#define REP(t) q7_field((t), FIELD_BITS)

#define BODY_BIN(SEM) *result = (SEM);
#define BODY_ORD(SEM) *aux = 0; *result = (SEM);
#define BODY_TER(SEM) *result = (SEM);
#define BODY_UN(SEM) *result = (SEM);
#define BODY_M2(SEM) q7_vbool A = vbool_from_words(a), B = vbool_from_words(b); \
                    vbool_to_words((SEM), out);
#define BODY_M1(SEM) q7_vbool A = vbool_from_words(a); vbool_to_words((SEM), out);
#define BODY_RED8(SEM) const q7_vbool M[8] = { vbool_from_words(m0), vbool_from_words(m1), \
                        vbool_from_words(m2), vbool_from_words(m3), vbool_from_words(m4), \
                        vbool_from_words(m5), vbool_from_words(m6), vbool_from_words(m7) }; \
                    vbool_to_words((SEM), out);
#define BODY_VEC2FS(SEM) q7_vec V = vec_from_words(vec); q7_vbool FS[8]; (SEM); \
                    uint32_t *fs[8] = { fs0, fs1, fs2, fs3, fs4, fs5, fs6, fs7 }; \
                    for (int j = 0; j < 8; j++) vbool_to_words(FS[j], fs[j]);
#define BODY_FS2VEC(SEM) const uint32_t *fs[8] = { fs0, fs1, fs2, fs3, fs4, fs5, fs6, fs7 }; \
                    q7_vbool FS[8]; q7_vec V; \
                    for (int j = 0; j < 8; j++) FS[j] = vbool_from_words(fs[j]); \
                    (SEM); vec_to_words(&V, vec);

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    void module__xdref_##suffix(Q7_PARAMS_##shape)                                   \
    {                                                                                \
        enum { FIELD_BITS = field_bits };                                            \
        (void)xstate;                                                                \
        BODY_##shape(semantics)                                                      \
    }

#include "mutants.h"
#include "q7pred_leaves.def"
