/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the files q7pred reads at run time are (internal): one rule for
 * every tool, so that an installed tree works as the build tree does.
 * A file of a kind (a row of Q7U_DATA_KINDS) is looked for, in order,
 *   1. under the install prefix: PREFIX/<installed>/NAME, PREFIX being the
 *      directory above this executable's (PREFIX/bin/q7pred);
 *   2. beside this executable: <its directory>/<built>/NAME (the build
 *      tree: $(BUILD)/libq7pred.so beside $(BUILD)/q7pred), for the kinds
 *      that have one;
 *   3. in the source tree this binary was built from, Q7_SRCDIR/<source>/NAME,
 *      for the kinds that have one (a build tree anywhere: BUILD=...).
 * The first that is readable is the answer. The interpreter the Python
 * tools run is chosen by one rule too (q7u_python).
 */
#ifndef Q7_UTIL_LOCATE_H
#define Q7_UTIL_LOCATE_H

#include <stdbool.h>
#include <stddef.h>

/* X(id, installed, built, source): NULL where a kind has no such place. */
#define Q7U_DATA_KINDS(X)                                                      \
    X(ORACLE, "share/q7pred", NULL, "src/tools/verify")     /* numpy_oracle.py */     \
    X(BENCH, "share/q7pred/bench", NULL, "bench")     /* the bench's scripts */ \
    X(LIBRARY, "lib", ".", NULL)                      /* libq7pred.so */        \
    X(PACKAGE, NULL, "python", NULL)                  /* make python's package */ \
    X(PROVER, "share/q7pred/prover", NULL, "prover") /* q7pred prove's package, q7prove */

typedef enum q7u_data_kind {
#define Q7U_DATA_ID(id, installed, built, source) Q7D_DATA_##id,
    Q7U_DATA_KINDS(Q7U_DATA_ID)
#undef Q7U_DATA_ID
    Q7U_DATA_KIND_COUNT
} q7u_data_kind;

/* The path of NAME of kind k into buf, true when a readable one was found;
 * else false, buf holding the first place looked at (for a message). */
bool q7u_data_path(q7u_data_kind k, const char *name, char *buf, size_t size);
/* Every place looked at for NAME, "; "-separated, for a message that says
 * where a missing file was looked for. */
void q7u_data_places(q7u_data_kind k, const char *name, char *buf, size_t size);

/* This executable's directory into buf ("" when /proc/self/exe cannot be
 * read); false then. */
bool q7u_self_dir(char *buf, size_t size);

/* The interpreter for the Python tools (the numpy oracle, the bench's
 * scripts): `given` (--python) when not NULL, else $Q7PRED_PYTHON when set
 * and not empty, else /usr/bin/python3 when it can be run (Debian's, with
 * numpy), else "python3" from PATH. *from says which ("--python",
 * "$Q7PRED_PYTHON", "default"), for the report's header. */
const char *q7u_python(const char *given, const char **from);

#endif
