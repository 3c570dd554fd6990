/* SPDX-License-Identifier: BSD-3-Clause */
/* ldmxcsr of a value with the ABI's control bits but a reserved bit
 * (31..16) set: #GP, every call crashes; a model that compares only the
 * control bits (mask 0xffc0) accepts it. */
#include "leaf.h"
LEAF(le_4_32_32)
#if VARIANT == 1
        mov dword ptr [rsp - 8], 0x00011f80
#elif VARIANT == 2
        mov dword ptr [rsp - 8], 0x00101f80
#else
        mov dword ptr [rsp - 8], 0x80001f80
#endif
        ldmxcsr [rsp - 8]
        LE32
        W4
        mov [rcx], eax
        ret
