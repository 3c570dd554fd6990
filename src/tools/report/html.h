/* SPDX-License-Identifier: BSD-3-Clause */
/* The HTML report's parts (internal to src/tools/report): the page (html.c),
 * its pictures (html_maps.c). */
#ifndef Q7_REPORT_HTML_H
#define Q7_REPORT_HTML_H

#include "person.h"

/* The "Mismatch maps" section: a figure per failing leaf with a picture
 * of its inputs (q7d_map_layout_of), and the failing leaves without one. */
void q7r_html_maps(FILE *f, const q7d_results *r);

#endif
