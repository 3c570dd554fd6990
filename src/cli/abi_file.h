/* SPDX-License-Identifier: BSD-3-Clause */
/* verify --abi: reading the probe's JSON (abi_file.c). */
#ifndef Q7_CLI_ABI_FILE_H
#define Q7_CLI_ABI_FILE_H

#include "cli.h"
#include "verify/verify.h"

/* How each leaf is called: its found shape and found order (the shape's
 * own order when the file gives none), -1 when the probe found none (not
 * called; abi->uncalled says why), its table shape when the file does not
 * name it or it is absent. CLI_OK, or a usage error naming the file and
 * the mistake (an interrupted probe's file is refused: it is not whole). */
int cli_read_abi(const char *path, q7d_abi *abi);

/* Each bit-spread leaf's bit map from the file: map[b] the output bit input
 * bit b moves to, or -1 (docs/report-format.md, "bit_map"). */
typedef struct cli_bit_maps {
    bool has[Q7_LEAF_COUNT];
    short map[Q7_LEAF_COUNT][512];
} cli_bit_maps;

/* The same for subcommand cmd (its name starts the messages), with the bit
 * maps into maps when it is not NULL. */
int cli_read_abi_for(const char *cmd, const char *path, q7d_abi *abi, cli_bit_maps *maps);

#endif
