/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tools (src/tools/host, prog, util, probe, report, verify, bench, cli)
 * may use of src/lib/platform beyond include/: the one header of this folder
 * they include (tests/layers.sh). Each piece is here for a tool's need:
 *   bits.h       lane masks and sign extension (corpora, host oracle)
 *   byteorder.h  explicit-endian loads and stores (ELF reader, bench proofs)
 *   clock.h      q7_now_seconds, every deadline and timing
 *   cpu.h        the CPU's features (fused sweeps, bench rows)
 *   dispatch.h   the path in force (host oracle's path selection)
 *   rows.h       lists of names as X-macros, their enums and switches
 *                (the host oracle's relations)
 *   words.h      operand words in memory order (call, exec, numpy, corpora)
 * contract.h (the debug checks of the API) stays the library's own.
 */
#ifndef Q7_PLATFORM_INTERNAL_H
#define Q7_PLATFORM_INTERNAL_H

#include "bits.h"
#include "byteorder.h"
#include "clock.h"
#include "cpu.h"
#include "dispatch.h"
#include "rows.h"
#include "words.h"

#endif
