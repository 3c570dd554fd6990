/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tools may use of src/lib/batch beyond include/: the one header of
 * this folder they include (tests/layers.sh).
 *   simd_model.h    the model on SIMD registers (the fused sweeps' model
 *                   side)
 *   steps_avx512.h  the AVX-512 batch loop (the host oracle's AVX-512 path)
 * Both are x86-64 only and empty elsewhere; kernels.h and formats.h stay
 * the library's own.
 */
#ifndef Q7_BATCH_INTERNAL_H
#define Q7_BATCH_INTERNAL_H

#include "simd_model.h"
#include "steps_avx512.h"

#endif
