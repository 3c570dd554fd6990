/* SPDX-License-Identifier: BSD-3-Clause */
/* The report formats a run writes to files (report.h): one row each. */
#include <string.h>

#include "report.h"

const q7r_format q7r_formats[Q7R_FORMAT_COUNT] = {
#define Q7R_ROW(id, opt, writer) [Q7R_##id] = { opt, writer },
    Q7R_FORMATS(Q7R_ROW)
#undef Q7R_ROW
};

int q7r_format_find(const char *opt)
{
    for (int i = 0; i < Q7R_FORMAT_COUNT; i++)
        if (strcmp(opt, q7r_formats[i].option) == 0) return i;
    return -1;
}
