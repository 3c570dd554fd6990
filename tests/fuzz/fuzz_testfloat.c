/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the TestFloat reader (q7d_tf_read_stream): any
 * bytes as a testfloat_gen case file. The input's first byte picks the
 * file's name (which may tell the function) and the function given (or
 * none). A file read is non-empty, of a supported function, every case's
 * operands within the format's width and flags within 5 bits; a file
 * refused gets one line naming the reader ("testfloat: ..."), never a
 * crash, a hang or a leak. Run by `make fuzz TARGET=testfloat` (longer)
 * and briefly by `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = { "f16_lt.txt", "f32_eq_signaling_1.txt", "cases.txt", "dir/f16_le_quiet" };
    static const char *const functions[] = { NULL, "f16_eq", "f32_le_quiet", "f64_lt" };
    if (size == 0) return 0;
    const char *name = names[data[0] & 3], *fn = functions[(data[0] >> 2) & 3];
    FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
    if (!f) return 0;
    q7d_tf_file tf;
    char err[1024] = "";
    bool ok = q7d_tf_read_stream(f, name, fn, &tf, err, sizeof err);
    fclose(f);
    if (ok) {
        if (tf.ncases == 0 || !q7d_tf_function_known(tf.function) || strcmp(tf.path, name) != 0) abort();
        uint32_t max = tf.function[1] == '1' ? 0xffff : 0xffffffff;
        for (size_t i = 0; i < tf.ncases; i++)
            if (tf.cases[i].a > max || tf.cases[i].b > max || tf.cases[i].flags > 0x1f) abort();
        q7d_tf_free(&tf);
    } else if (strncmp(err, "testfloat: ", 11) != 0 || strchr(err, '\n') || tf.cases || tf.path) {
        abort();
    }
    return 0;
}
