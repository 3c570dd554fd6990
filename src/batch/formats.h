/* SPDX-License-Identifier: BSD-3-Clause */
/* The constants of the two fp formats on a 32-bit word (fp16 in its low
 * half), shared by every batch kernel: the portable one and the SIMD ones. */
#ifndef Q7_BATCH_FORMATS_H
#define Q7_BATCH_FORMATS_H

#define F16_SIGN 0x8000u
#define F16_INF 0x7c00u
#define F16_MINNORM 0x0400u
#define F16_QUIET 0x0200u
#define F32_SIGN 0x80000000u
#define F32_INF 0x7f800000u
#define F32_MINNORM 0x00800000u
#define F32_QUIET 0x00400000u

#endif
