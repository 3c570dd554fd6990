/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generates a SIMD host path's kernel table and its batch entry from
 * HOST_KINDS (host_impl.h). A path file defines, before including this:
 *   HOST_PATH      its name: the entry is q7h_<PATH>_eval_batch
 *   HOST_ATTR      its functions' target attribute
 *   HOST_DONE(n)   the calls its kernels do of n (whole steps, or all n)
 * and, for every kind of HOST_KINDS, its kernel k_<KIND> written with
 * HOST_KIND(kind) { ... } or `#define k_<KIND> NULL` where it has none, so
 * a new kind does not compile until the path says which.
 */
#define HOST_CAT_(a, b, c) a##b##c
#define HOST_CAT(a, b, c) HOST_CAT_(a, b, c)

static host_simd_kernel *const kernels[HK_COUNT] = {
#define ROW(kind) [HK_##kind] = k_##kind,
    HOST_KINDS(ROW)
#undef ROW
};

size_t HOST_CAT(q7h_, HOST_PATH, _eval_batch)(host_op op, size_t n, const uint32_t *const in[],
                                                uint32_t *const out[])
{
    host_simd_kernel *kernel = op.kind < HK_COUNT ? kernels[op.kind] : NULL;
    if (!kernel) return 0;
    kernel(op, n, in, out);
    return HOST_DONE(n);
}

#undef HOST_CAT_
#undef HOST_CAT
