/* SPDX-License-Identifier: BSD-3-Clause */
/* probe --disasm: a leaf's stores and the registers they go through, from
 * its bytes in the library file (capstone, where the build found it). */
#ifndef Q7_CLI_PROBE_DISASM_H
#define Q7_CLI_PROBE_DISASM_H

#include <stdbool.h>
#include <stdio.h>

bool cli_disasm_available(void);
/* One line per store of the size bytes at offset of the file: "store via
 * (%r8): movl %eax, (%r8)"; a line saying why when there is nothing to read. */
void cli_disasm_stores(FILE *out, const char *path, unsigned long long offset, unsigned long long size);

#endif
