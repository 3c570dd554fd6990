/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for vector programs: any bytes through the parser, and a
 * parsed program through the runner twice, traced with prints and JSON
 * written to /dev/null and untraced without output, to the same state.
 * Run by `make fuzz` (longer) and briefly by `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog/program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    if (!sink) abort();
    /* an exact-size copy so that ASan sees any read past the end */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    memcpy(text, data, size);
    exec_program prog;
    exec_error err;
    if (prog_parse(text, size, &prog, &err)) {
        /* traced (one statement at a time) and untraced (the whole program
         * in one loop, prints dropped) end in the same state */
        exec_state st, fast;
        prog_state_init(&st);
        prog_state_init(&fast);
        prog_run(&prog, &st, sink, sink, "fuzz");
        prog_run(&prog, &fast, NULL, NULL, "fuzz");
        if (memcmp(&st, &fast, sizeof st) != 0) abort();
        prog_print_json(&st, sink);
        prog_program_free(&prog);
    } else {
        /* an error always names a line of the input and a column on it (at
         * most just past its last byte), with a one-line message */
        if (err.line == 0 || err.col == 0 || err.msg[0] == '\0' || memchr(err.msg, '\n', sizeof err.msg))
            abort();
        size_t pos = 0;
        for (unsigned l = 1; l < err.line; l++) {
            const char *nl = memchr(text + pos, '\n', size - pos);
            if (!nl) abort();                               /* no such line */
            pos = (size_t)(nl - text) + 1;
        }
        const char *nl = pos < size ? memchr(text + pos, '\n', size - pos) : NULL;
        size_t len = (nl ? (size_t)(nl - text) : size) - pos;
        if (err.col > len + 1) abort();
    }
    free(text);
    return 0;
}
