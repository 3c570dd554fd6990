/* SPDX-License-Identifier: BSD-3-Clause */
/* verify --abi: reading the probe's JSON (abi_file.c). */
#ifndef Q7_CLI_ABI_FILE_H
#define Q7_CLI_ABI_FILE_H

#include "cli.h"

/* shape[i] for every leaf: its found shape, -1 when the probe found none
 * (not called), its table shape when the file does not name it or it is
 * absent. CLI_OK, or a usage error naming the file and the mistake. */
int cli_read_abi(const char *path, signed char *shape);

#endif
