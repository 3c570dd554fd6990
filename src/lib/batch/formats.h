/* SPDX-License-Identifier: BSD-3-Clause */
/* The constants of the two fp formats on a 32-bit word (fp16 in its low
 * half), shared by every batch kernel: the portable one and the SIMD ones.
 * Each is the model's (model/ieee.h, its template at the format's width);
 * the sign is the bit above the magnitude ieee_mag<bits> keeps. */
#ifndef Q7_BATCH_FORMATS_H
#define Q7_BATCH_FORMATS_H

#include "model/ieee.h"

#define F16_SIGN ((uint32_t)INT16_MAX + 1)
#define F16_INF ((uint32_t)IEEE16_INF)
#define F16_MINNORM ((uint32_t)IEEE16_MINNORM)
#define F16_QUIET ((uint32_t)IEEE16_QUIET)
#define F32_SIGN ((uint32_t)INT32_MAX + 1)
#define F32_INF ((uint32_t)IEEE32_INF)
#define F32_MINNORM ((uint32_t)IEEE32_MINNORM)
#define F32_QUIET ((uint32_t)IEEE32_QUIET)

#endif
