/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing reports whole or not at all (report_files.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report_files.h"
#include "util/paths.h"
#include "util/process.h"

/* ------------------------------------------------------------ one file */

static int open_error(const char *cmd, const char *what, const char *path, int err)
{
    return cli_usage_error("%s: cannot write %s '%s': %s", cmd, what, path, strerror(err));
}

/* "DIR/.BASE.XXXXXX" beside target. */
static char *temp_template(const char *target)
{
    char *d = strdup(target), *b = strdup(target), *t = NULL;
    if (d && b) {
        const char *dir = dirname(d), *base = basename(b);
        size_t n = strlen(dir) + strlen(base) + 16;
        if ((t = malloc(n))) snprintf(t, n, "%s/.%s.XXXXXX", dir, base);
    }
    free(d);
    free(b);
    return t;
}

/* The mode a new file gets (0666 less the umask), or the old file's. */
static mode_t new_mode(const struct stat *old)
{
    if (old) return old->st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int cli_out_file_open(out_file *o, const char *cmd, const char *what, const char *path)
{
    *o = (out_file){ .cmd = cmd, .path = path };
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return CLI_OK;
    }
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) return open_error(cmd, what, path, EISDIR);
    if (exists && !S_ISREG(sb.st_mode)) {   /* a device or a FIFO: in place */
        char why[160];
        if ((o->f = q7u_fopen_output_in_place(path, why, sizeof why))) return CLI_OK;
        return cli_usage_error("%s: cannot write %s '%s': %s", cmd, what, path, why);
    }
    /* a read-only report stays protected, as writing it in place would */
    if (exists && access(path, W_OK) != 0) return open_error(cmd, what, path, errno);
    char real[PATH_MAX];
    q7u_path_resolve(path, real, sizeof real);   /* a link: its file */
    o->target = strdup(real);
    o->tmp = o->target ? temp_template(o->target) : NULL;
    if (!o->tmp) {
        cli_out_file_discard(o);
        return open_error(cmd, what, path, ENOMEM);
    }
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        cli_out_file_discard(o);
        return open_error(cmd, what, path, e);
    }
    if (fchmod(fd, new_mode(exists ? &sb : NULL)) != 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        cli_out_file_discard(o);
        return open_error(cmd, what, path, e);
    }
    return CLI_OK;
}

void cli_out_file_discard(out_file *o)
{
    if (o->f && o->f != stdout) fclose(o->f);
    o->f = NULL;
    if (o->tmp) unlink(o->tmp);
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
}

int cli_out_file_finish(out_file *o, const char *what)
{
    if (!o->f) return CLI_OK;
    /* a write that failed earlier left its reason in errno; stdio kept none */
    int earlier = ferror(o->f) ? errno : 0;
    errno = 0;
    bool ok = !ferror(o->f) && fflush(o->f) == 0;
    int e = errno ? errno : earlier;
    if (ok && o->tmp && fsync(fileno(o->f)) != 0) ok = false, e = errno;
    if (o->f != stdout && fclose(o->f) != 0 && ok) ok = false, e = errno;
    o->f = NULL;
    if (ok) return CLI_OK;
    const char *why = e ? strerror(e) : "write error";
    const char *cmd = o->cmd;
    /* its reader stopped reading: not an error of ours (main ends quietly) */
    if (strcmp(o->path, "-") == 0 && cli_stdout_broken()) return CLI_OK;
    if (strcmp(o->path, "-") == 0) return cli_usage_error("%s: error writing %s to stdout: %s", cmd, what, why);
    if (!o->tmp)
        return cli_usage_error("%s: error writing %s '%s': %s (written in place: it may be incomplete)", cmd, what,
                               o->path, why);
    const char *path = o->path;
    cli_out_file_discard(o);
    return cli_usage_error("%s: error writing %s '%s': %s (the file is left as it was)", cmd, what, path, why);
}

/* The directory entry of a rename is durable once its directory is synced. */
static void sync_dir_of(const char *path)
{
    char *d = strdup(path);
    if (!d) return;
    int fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(d);
}

int cli_out_file_commit(out_file *o, const char *what)
{
    if (!o->tmp) return CLI_OK;
    int rc = CLI_OK;
    if (rename(o->tmp, o->target) != 0)
        rc = cli_usage_error("%s: cannot replace %s '%s': %s", o->cmd, what, o->path, strerror(errno));
    else {
        sync_dir_of(o->target);
        free(o->tmp);
        o->tmp = NULL;
    }
    cli_out_file_discard(o);
    return rc;
}

/* ------------------------------------------------------------ one file, two names */

/* The identity of a file a run names: the device and inode of its file
 * when there is one ('-': stdout's for an output, stdin's for an input),
 * and its path with its links followed and its directory resolved. */
typedef struct identity {
    bool has_inode, stream;   /* stream: '-' */
    dev_t dev;
    ino_t ino;
    char path[PATH_MAX];
} identity;

static void identify(const char *path, bool output, identity *id)
{
    struct stat sb;
    memset(id, 0, sizeof *id);
    id->stream = strcmp(path, "-") == 0;
    bool found = id->stream ? fstat(output ? STDOUT_FILENO : STDIN_FILENO, &sb) == 0 : stat(path, &sb) == 0;
    if (found) {
        id->has_inode = true;
        id->dev = sb.st_dev;
        id->ino = sb.st_ino;
    }
    if (!id->stream) q7u_path_resolve(path, id->path, sizeof id->path);
}

static bool same_file(const identity *a, const identity *b)
{
    if (a->has_inode && b->has_inode) return a->dev == b->dev && a->ino == b->ino;
    return !a->stream && !b->stream && strcmp(a->path, b->path) == 0;
}

/* Whether output o overwrites input i: one file, and not two streams
 * (stdin and stdout may be one terminal); a stream only when it is a
 * regular file (`> lib.so` redirected there). */
static bool overwrites(const identity *o, const identity *i)
{
    if (o->stream && i->stream) return false;
    if (!same_file(o, i)) return false;
    struct stat sb;
    if (o->stream) return fstat(STDOUT_FILENO, &sb) == 0 && S_ISREG(sb.st_mode);
    if (i->stream) return fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode);
    return true;
}

static int empty_path(const char *cmd, const out_option *opts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (opts[i].path && !opts[i].path[0])
            return cli_usage_error("%s: %s is given an empty file name", cmd, opts[i].option);
    return CLI_OK;
}

int cli_out_options_distinct(const char *cmd, const out_option *opts, size_t n)
{
    int rc = empty_path(cmd, opts, n);
    identity *id = calloc(n ? n : 1, sizeof *id);
    if (!id) rc = cli_error("%s: out of memory", cmd);
    for (size_t i = 0; rc == CLI_OK && i < n; i++) {
        if (!opts[i].path) continue;
        identify(opts[i].path, true, &id[i]);
        for (size_t j = 0; rc == CLI_OK && j < i; j++) {
            if (!opts[j].path || !same_file(&id[j], &id[i])) continue;
            if (strcmp(opts[i].path, opts[j].path) == 0)
                rc = cli_usage_error("%s: %s and %s both write '%s' (give each its own file)", cmd, opts[j].option,
                                     opts[i].option, opts[i].path);
            else
                rc = cli_usage_error("%s: %s '%s' and %s '%s' are one file (give each its own file)", cmd,
                                     opts[j].option, opts[j].path, opts[i].option, opts[i].path);
        }
    }
    free(id);
    return rc;
}

int cli_files_distinct(const char *cmd, const out_option *outs, size_t nout, const out_option *ins, size_t nin)
{
    int rc = cli_out_options_distinct(cmd, outs, nout);
    if (rc == CLI_OK) rc = empty_path(cmd, ins, nin);
    identity *in = calloc(nin ? nin : 1, sizeof *in), out;
    if (rc == CLI_OK && !in) rc = cli_error("%s: out of memory", cmd);
    for (size_t k = 0; rc == CLI_OK && k < nin; k++)
        if (ins[k].path) identify(ins[k].path, false, &in[k]);
    for (size_t i = 0; rc == CLI_OK && i < nout; i++) {
        if (!outs[i].path) continue;
        identify(outs[i].path, true, &out);
        for (size_t k = 0; rc == CLI_OK && k < nin; k++) {
            if (!ins[k].path || !overwrites(&out, &in[k])) continue;
            const char *what = out.stream ? "stdout" : in[k].stream ? "stdin" : NULL;
            if (what)
                rc = cli_usage_error("%s: %s '%s' and %s '%s' are one file (%s): writing one would replace what the "
                                     "run reads", cmd, outs[i].option, outs[i].path, ins[k].option, ins[k].path, what);
            else if (strcmp(outs[i].path, ins[k].path) == 0)
                rc = cli_usage_error("%s: %s '%s' would replace the file %s reads (give the output a file of its "
                                     "own)", cmd, outs[i].option, outs[i].path, ins[k].option);
            else
                rc = cli_usage_error("%s: %s '%s' and %s '%s' are one file: writing one would replace what the run "
                                     "reads (give the output a file of its own)", cmd, outs[i].option, outs[i].path,
                                     ins[k].option, ins[k].path);
        }
    }
    free(in);
    return rc;
}

/* ------------------------------------------------------------ the verify reports */

enum { NREPORTS = Q7R_FORMAT_COUNT };

static void report_options(const report_files *o, out_option *opts)
{
    for (int i = 0; i < NREPORTS; i++) opts[i] = (out_option){ q7r_formats[i].option, o->path[i] };
}

static void write_text(FILE *text, const q7d_results *r, const report_files *o)
{
    if (o->quiet) {   /* the verdict line alone: every gap is named there too */
        q7r_report_verdict(text, r);
        fputc('\n', text);
    } else if (o->by_leaf) {
        q7r_report_text_by_leaf(text, r);
    } else {
        q7r_report_text(text, r);
    }
}

int cli_out_options_check(const char *cmd, const out_option *opts, size_t n)
{
    int rc = cli_out_options_distinct(cmd, opts, n);
    for (size_t i = 0; rc == CLI_OK && i < n; i++) {
        if (!opts[i].path || strcmp(opts[i].path, "-") == 0) continue;
        struct stat sb;
        if (stat(opts[i].path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
            /* written in place: opening a FIFO here would wait for its reader */
            if (access(opts[i].path, W_OK) != 0) rc = open_error(cmd, "report", opts[i].path, errno);
            continue;
        }
        out_file probe;
        rc = cli_out_file_open(&probe, cmd, "report", opts[i].path);
        if (rc == CLI_OK) cli_out_file_discard(&probe);
    }
    return rc;
}

int cli_report_files_distinct(const report_files *o, const out_option *more, size_t nmore, const out_option *ins,
                              size_t nin)
{
    out_option outs[NREPORTS + 4];
    if (nmore > 4) nmore = 4;
    report_options(o, outs);
    for (size_t i = 0; i < nmore; i++) outs[NREPORTS + i] = more[i];
    return cli_files_distinct(o->cmd, outs, NREPORTS + nmore, ins, nin);
}

int cli_report_files_check(const report_files *o)
{
    out_option opts[NREPORTS];
    report_options(o, opts);
    return cli_out_options_check(o->cmd, opts, NREPORTS);
}

/* Opens, writes and finishes every report; CLI_OK when all are ready to
 * be committed. */
static int write_all(const q7d_results *r, const report_files *o, out_file *out)
{
    out_option opts[NREPORTS];
    report_options(o, opts);
    int rc = CLI_OK;
    bool report_on_stdout = false;
    for (int i = 0; rc == CLI_OK && i < NREPORTS; i++)
        if (opts[i].path) {
            rc = cli_out_file_open(&out[i], o->cmd, "report", opts[i].path);
            report_on_stdout |= strcmp(opts[i].path, "-") == 0;
        }
    if (rc == CLI_OK) {
        write_text(report_on_stdout ? stderr : stdout, r, o);   /* keep stdout parseable */
        for (int i = 0; i < NREPORTS; i++)
            if (out[i].f) q7r_formats[i].write(out[i].f, r);
        for (int i = 0; rc == CLI_OK && i < NREPORTS; i++) rc = cli_out_file_finish(&out[i], "report");
    }
    return rc;
}

/* Interrupts are armed throughout (process.h): a signal while the reports
 * are written is noted, not fatal, and then none of them is committed. */
int cli_report_files_write(const q7d_results *r, const report_files *o)
{
    out_file out[NREPORTS] = { { 0 } };
    q7u_interrupt_arm();
    unsigned signals = q7u_interrupt_count();
    int rc = write_all(r, o, out);
    bool cut = q7u_interrupt_count() != signals;
    /* every report, or none of them */
    for (int i = 0; i < NREPORTS; i++) {
        if (rc == CLI_OK && !cut) rc = cli_out_file_commit(&out[i], "report");
        else cli_out_file_discard(&out[i]);
    }
    q7u_interrupt_disarm();
    if (cut) {
        if (rc == CLI_OK)   /* else the error said what failed */
            cli_error("%s: interrupted (%s) while writing the reports: none was written; the old files are left "
                      "as they were", o->cmd, q7u_signal_name(q7u_interrupted()));
        return 128 + q7u_interrupted();
    }
    if (rc != CLI_OK) return rc;
    return q7d_results_pass(r) ? CLI_OK : CLI_FAIL;
}
