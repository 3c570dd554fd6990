/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's own version, for a program to compare with the header it
 * was compiled against. */
#include "q7pred.h"

const char *q7_version(void) { return Q7PRED_VERSION; }
