/* SPDX-License-Identifier: BSD-3-Clause */
/* Each leaf's proof status, from the report `make prove-formal` or
 * `q7pred prove --json` writes ({"leaves": [{"leaf", "status", "seconds",
 * ...}, ...]}, docs/proofs.md), for `q7pred list`. */
#ifndef Q7_CLI_PROOF_STATUS_H
#define Q7_CLI_PROOF_STATUS_H

#include <stddef.h>

typedef struct proof_status proof_status;

/* The report at path; NULL with a message naming the file and what is wrong. */
proof_status *cli_proof_status_load(const char *path, char *err, size_t errsize);
/* The leaf's status ("proven-ir", "proven-semantics", "unproven"; from
 * prove: "proven-binary", "refuted", "unproven", "absent"), or
 * "not run" when the report has no row for it. */
const char *cli_proof_status_of(const proof_status *p, const char *leaf);
void cli_proof_status_free(proof_status *p);

struct q7d_proofs;
/* Every table leaf's row of the report (its status, and its detail or
 * prover and time) into out, for the HTML report; source names the file. */
void cli_proof_status_fill(const proof_status *p, const char *source, struct q7d_proofs *out);
/* --proofs FILE of `cmd` read into out: CLI_OK, or a usage error naming
 * the file and what is wrong with it. */
int cli_load_proofs(const char *cmd, const char *path, struct q7d_proofs *out);

#endif
