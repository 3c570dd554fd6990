/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a file was when a run used it, for the record of a report: its
 * real path, size, SHA-256 and modification time, and for an ELF file its
 * SONAME (DT_SONAME of the dynamic section) and GNU build-id (the
 * NT_GNU_BUILD_ID note), read from the program headers of a 32- or 64-bit
 * ELF file of either byte order. "Which libfiss-base.so did we verify?"
 * is answered by these, not by a path.
 */
#ifndef Q7_UTIL_FILE_IDENTITY_H
#define Q7_UTIL_FILE_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sha256.h"

#define FILE_ID_PATH_MAX 512

typedef struct file_identity {
    char path[FILE_ID_PATH_MAX];   /* the real path (as given if it cannot be resolved); "" none */
    uint64_t size;                 /* bytes */
    char sha256[SHA256_HEX_SIZE];  /* of its bytes, hex */
    char soname[256];              /* "" when it has none (or is not ELF) */
    char build_id[129];            /* hex of the note's bytes, "" when it has none */
    char mtime[32];                /* modification time, UTC, ISO 8601: 2026-06-17T08:30:00Z */
} file_identity;

/* Reads the identity of the file at path. false, with the reason in err,
 * when it cannot be read; a file that is not ELF (or an ELF file whose
 * headers lie) is still identified, with no SONAME or build-id. */
bool q7u_file_identity_of(const char *path, file_identity *id, char *err, size_t errsize);
/* t (seconds since the epoch) as UTC, ISO 8601, into buf (32 bytes). */
void q7u_utc_iso8601(int64_t t, char buf[32]);

#endif
