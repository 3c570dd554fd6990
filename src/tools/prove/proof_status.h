/* SPDX-License-Identifier: BSD-3-Clause */
/* Each leaf's proof status, from the report `q7pred prove --json` (and
 * `make prove-formal`) writes, or an IR proof's of the model's source
 * ({"leaves": [{"leaf", "status", "seconds", ...}, ...]},
 * docs/report-format.md), for `q7pred list`. */
#ifndef Q7_PROVE_PROOF_STATUS_H
#define Q7_PROVE_PROOF_STATUS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct prv_proof_file prv_proof_file;

/* The report at path; NULL with a message naming the file and what is
 * wrong: a status none of those below, two rows of one table leaf, an
 * "interrupted" that is not a boolean. */
prv_proof_file *prv_proof_file_load(const char *path, char *err, size_t errsize);
/* The leaf's status (from prove: "proven-binary", "refuted", "unproven",
 * "absent"; from an IR proof: "proven-ir", "proven-semantics"), or "not run"
 * when the report has no row for it ("not run (interrupted)" when the run
 * that wrote it was interrupted). */
const char *prv_proof_file_status(const prv_proof_file *p, const char *leaf);
#define PRV_NOT_RUN_INTERRUPTED "not run (interrupted)"
/* Whether the run that wrote the report was interrupted. */
bool prv_proof_file_interrupted(const prv_proof_file *p);
void prv_proof_file_free(prv_proof_file *p);

struct q7d_proofs;
/* Every table leaf's row of the report (its status, and its detail or
 * prover and time) into out, for the HTML report; source names the file. */
void prv_proof_file_fill(const prv_proof_file *p, const char *source, struct q7d_proofs *out);

#endif
