/* SPDX-License-Identifier: BSD-3-Clause */
/* verify --abi: reading the probe's JSON (abi_file.c). */
#ifndef Q7_CLI_ABI_FILE_H
#define Q7_CLI_ABI_FILE_H

#include "cli.h"
#include "util/file_identity.h"
#include "verify/verify.h"

/* The library a probe report was made from, as the report records it
 * (its "file": {FILE}); known false for a report without one (written by
 * a q7pred before the probe recorded it). */
typedef struct cli_abi_source {
    bool known, warned;
    char path[FILE_ID_PATH_MAX];
    char sha256[SHA256_HEX_SIZE];
    uint32_t xstate_size;   /* the xstate the probe passed (probe --xstate-size; 0: NULL) */
} cli_abi_source;

/* How each leaf is called: its found shape and found order (the shape's
 * own order when the file gives none), -1 when the probe found none (not
 * called; abi->uncalled says why), its table shape when the file does not
 * name it or it is absent. CLI_OK, or a usage error naming the file and
 * the mistake (an interrupted probe's file is refused: it is not whole);
 * the library it records into source. */
int cli_read_abi(const char *path, q7d_abi *abi, cli_abi_source *source);

/* Each bit-spread leaf's bit map from the file: map[b] the output bit input
 * bit b moves to, or -1 (docs/report-format.md, "bit_map"). */
typedef struct cli_bit_maps {
    bool has[Q7_LEAF_COUNT];
    short map[Q7_LEAF_COUNT][512];
} cli_bit_maps;

/* The same for subcommand cmd (its name starts the messages), with the bit
 * maps into maps when it is not NULL and the report's library into source
 * when it is not NULL. */
int cli_read_abi_for(const char *cmd, const char *path, q7d_abi *abi, cli_bit_maps *maps, cli_abi_source *source);

/* Whether the library lib (its identity id, or NULL to read it) is the
 * file the probe report abi_path was made from: CLI_OK when its SHA-256 is
 * the one the report records, and, once per source, with a one-line
 * warning on stderr when the report records none; else a usage error
 * naming both files and both SHA-256s. */
int cli_abi_check_library(const char *cmd, const char *abi_path, cli_abi_source *source, const char *lib,
                          const file_identity *id);

/* The xstate a run with --abi passes: *xstate_size (its --xstate-size, 0
 * when not given) becomes the probe's when not given; one given that is
 * not the probe's is a usage error naming both (the ABI found with one
 * state need not hold with another). */
int cli_abi_xstate(const char *cmd, const char *abi_path, const cli_abi_source *source, uint32_t *xstate_size);

#endif
