/* SPDX-License-Identifier: BSD-3-Clause */
/* Each leaf's proof status, from the report `make prove-formal` or
 * `q7pred prove --json` writes ({"leaves": [{"leaf", "status", "seconds",
 * ...}, ...]}, docs/proofs.md), for `q7pred list`. */
#ifndef Q7_PROVE_PROOF_STATUS_H
#define Q7_PROVE_PROOF_STATUS_H

#include <stddef.h>

typedef struct prv_proof_file prv_proof_file;

/* The report at path; NULL with a message naming the file and what is wrong. */
prv_proof_file *prv_proof_file_load(const char *path, char *err, size_t errsize);
/* The leaf's status ("proven-ir", "proven-semantics", "unproven"; from
 * prove: "proven-binary", "refuted", "unproven", "absent"), or
 * "not run" when the report has no row for it. */
const char *prv_proof_file_status(const prv_proof_file *p, const char *leaf);
void prv_proof_file_free(prv_proof_file *p);

struct q7d_proofs;
/* Every table leaf's row of the report (its status, and its detail or
 * prover and time) into out, for the HTML report; source names the file. */
void prv_proof_file_fill(const prv_proof_file *p, const char *source, struct q7d_proofs *out);

#endif
