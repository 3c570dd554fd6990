/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The files a command line names (internal): what a path resolves to, and
 * the one way every input file is opened. Every open is non-blocking (a
 * FIFO with no writer, a terminal line never holds the command). A file
 * the tools load or run (a library, a program) must be a regular file; a
 * file they read as text (a report, --abi, --proofs, a corpus, a program
 * of exec) may also be a FIFO or a character device (`<(command)`), read
 * with every wait for data bounded by Q7U_INPUT_IDLE_SECONDS, so no read
 * of an operand waits without bound. Standard input ("-"), where a
 * command documents it, is its caller's to take before asking here.
 */
#ifndef Q7_UTIL_PATHS_H
#define Q7_UTIL_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The file path names: its symbolic links followed as far as they lead (a
 * dangling link: the file it would create), its directory resolved; path
 * itself when nothing resolves. */
void q7u_path_resolve(const char *path, char *out, size_t size);

/* "a FIFO", "a directory", "a character device", ...: what a file of that
 * mode is, for "it is a FIFO, not a regular file". */
const char *q7u_file_kind(mode_t mode);

/* Opens path to read when it names a regular file: the descriptor
 * (close-on-exec, blocking reads), else -1 with the reason in why
 * ("No such file or directory", "it is a FIFO, not a regular file"). */
int q7u_open_regular(const char *path, char *why, size_t whysize);
/* The same, and its status in st (a failed fstat closes it: -1, why said). */
struct stat;
int q7u_open_regular_stat(const char *path, struct stat *st, char *why, size_t whysize);
/* The same as a stream ("rb"). */
FILE *q7u_fopen_regular(const char *path, char *why, size_t whysize);

/* The longest a text input that is a FIFO or a device may leave a read
 * waiting: past it the read fails with ETIME ("Timer expired"). */
#define Q7U_INPUT_IDLE_SECONDS 20
/* A file read as text: a regular file as q7u_fopen_regular opens it; a
 * FIFO or a character device as a stream whose reads wait at most
 * Q7U_INPUT_IDLE_SECONDS each (a FIFO with no writer reads as empty); a
 * directory, socket or block device refused with the reason in why. */
FILE *q7u_fopen_input(const char *path, char *why, size_t whysize);

/* A FIFO or device written in place (an output that is no regular file):
 * opened for writing without blocking, a FIFO no process reads retried for
 * at most Q7U_INPUT_IDLE_SECONDS (or until an interrupt, process.h); the
 * stream, or NULL with the reason in why. */
FILE *q7u_fopen_output_in_place(const char *path, char *why, size_t whysize);

#endif
