/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the tools' own data files are, installed or in the build tree
 * (internal): the numpy oracle's program and the binary prover's Python
 * files. An installed tool finds them beside its install prefix,
 * <exe dir>/../share/q7pred/<installed>, a tool run from its build tree in
 * the source tree it was built from, <Q7_SRCDIR>/<source> (Q7_SRCDIR is
 * defined when util/data_path.c is compiled; mk/core.mk).
 */
#ifndef Q7_UTIL_DATA_PATH_H
#define Q7_UTIL_DATA_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* The first of the two places that holds a readable file, into buf;
 * false (buf the last place tried) when neither does. */
bool q7d_data_file(const char *installed, const char *source, char *buf, size_t size);

/* The Python interpreter: the environment variable env_var when it is set
 * and not empty, else /usr/bin/python3 (Debian's, with its packages), else
 * python3 from PATH. */
const char *q7d_python(const char *env_var);

#endif
