/* SPDX-License-Identifier: BSD-3-Clause */
/* The prover's word on the loaded library (prove_image.h). */
#include "prove_image.h"

#include "util/escape.h"

void prv_image_note(FILE *f, const json *image)
{
    const json *n = q7u_json_get(image, "differing_bytes"), *p = q7u_json_get(image, "problems");
    double bytes = n && n->type == JSON_NUMBER ? n->number : 0;
    if (!p || p->type != JSON_ARRAY || (bytes <= 0 && p->n == 0)) return;
    fputs("prove: the loaded library", f);
    if (bytes > 0) fprintf(f, ": %.0f bytes differ from its file with its relocations applied", bytes);
    for (size_t k = 0; k < p->n; k++) {
        fputs(k || bytes > 0 ? "; " : ": ", f);
        q7u_esc_write(f, p->child[k].type == JSON_STRING ? p->child[k].string : "?", ESC_TEXT);
    }
    fputc('\n', f);
}
