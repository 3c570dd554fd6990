/* SPDX-License-Identifier: BSD-3-Clause */
/* verify --abi: reading the probe's JSON (abi_file.c). */
#ifndef Q7_CLI_ABI_FILE_H
#define Q7_CLI_ABI_FILE_H

#include "cli.h"

/* shape[i] for every leaf: its found shape, -1 when the probe found none
 * (not called), its table shape when the file does not name it or it is
 * absent. CLI_OK, or a usage error naming the file and the mistake. */
int cli_read_abi(const char *path, signed char *shape);

/* Each bit-spread leaf's bit map from the file: map[b] the output bit input
 * bit b moves to, or -1 (docs/report-format.md, "bit_map"). */
typedef struct cli_bit_maps {
    bool has[Q7_LEAF_COUNT];
    short map[Q7_LEAF_COUNT][512];
} cli_bit_maps;

/* The same for subcommand cmd (its name starts the messages), with the bit
 * maps into maps when it is not NULL. */
int cli_read_abi_for(const char *cmd, const char *path, signed char *shape, cli_bit_maps *maps);

#endif
