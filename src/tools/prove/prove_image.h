/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the prover found of the library as the loader left it (internal):
 * the "image" member of its header line (docs/report-format.md, "The
 * prover's lines").
 */
#ifndef Q7_PROVE_PROVE_IMAGE_H
#define Q7_PROVE_PROVE_IMAGE_H

#include <stdio.h>

#include "util/json.h"

/* One line to f when the proof cannot take the loaded library as its file
 * says it (bytes that differ, something loading left); nothing otherwise. */
void prv_image_note(FILE *f, const json *image);

#endif
