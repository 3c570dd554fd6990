/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checkpoints of a verify run and resuming from one (verify.h). A resumed
 * run takes everything the checkpoint ran as it stands (each unit's counts,
 * cell states and time, the mismatch and crash records, the maps) and
 * goes on in each unit at its slice's start + cases; since the records are
 * kept as the first max_report per leaf in (corpus, index) order whatever
 * order they arrive in, and the counts and maps are sums over cases, the
 * result is the uninterrupted run's.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/paths.h"
#include "verify/verify.h"

/* The rename is durable once the directory is synced. */
static void sync_dir(const char *path)
{
    char *d = strdup(path);
    int fd = d ? open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(d);
}

/* The file PATH names (a symbolic link followed, as every report's path
 * is), and its sibling TARGET.suffix; false when too long. */
static bool sibling(const char *path, const char *suffix, char *target, char *out, size_t size)
{
    struct stat sb;
    if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) q7u_path_resolve(path, target, size);
    else snprintf(target, size, "%s", path);
    return (size_t)snprintf(out, size, "%s%s", target, suffix) < size;
}

/* A new file at tmp, whatever was there (a stale one of a killed run, or a
 * link or FIFO planted there: never written through, never waited on). */
static FILE *fresh_file(const char *tmp)
{
    unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

bool q7d_checkpoint_write(const char *path, const q7d_results *r, q7d_report_writer *write, char *err,
                          size_t errsize)
{
    char target[4104], tmp[4104];
    if (!sibling(path, ".tmp", target, tmp, sizeof tmp))
        return snprintf(err, errsize, "checkpoint: path too long: %s", path), false;
    FILE *f = fresh_file(tmp);
    if (!f) return snprintf(err, errsize, "checkpoint: cannot write '%s': %s", tmp, strerror(errno)), false;
    write(f, r);
    bool ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int e = errno;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(tmp, target) == 0) {
        sync_dir(target);
        return true;
    }
    if (ok) e = errno;
    unlink(tmp);
    snprintf(err, errsize, "checkpoint: cannot write '%s': %s", path, strerror(e));
    return false;
}

bool q7d_checkpoint_claim(const char *path, int *lock, char *err, size_t errsize)
{
    char target[4104], tmp[4104], lockpath[4104];
    struct stat sb;
    *lock = -1;
    if (!sibling(path, ".tmp", target, tmp, sizeof tmp) || !sibling(path, ".lock", target, lockpath, sizeof lockpath))
        return snprintf(err, errsize, "--checkpoint: path too long: %s", path), false;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return snprintf(err, errsize, "--checkpoint: cannot write '%s': %s", path,
                        S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "it is not a regular file"), false;
    int fd = open(lockpath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) return snprintf(err, errsize, "--checkpoint: cannot write '%s': %s", lockpath, strerror(errno)), false;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return snprintf(err, errsize, "--checkpoint: cannot lock '%s': it is not a regular file", lockpath), false;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            return snprintf(err, errsize, "--checkpoint: '%s' is in use by another run of verify (it holds '%s'); "
                            "give this run a checkpoint of its own", path, lockpath), false;
        return snprintf(err, errsize, "--checkpoint: cannot lock '%s': %s", lockpath, strerror(e)), false;
    }
    /* a stale PATH.tmp of a killed run is replaced, as the first write would */
    FILE *t = fresh_file(tmp);
    if (!t) {
        snprintf(err, errsize, "--checkpoint: cannot write '%s': %s", tmp, strerror(errno));
        q7d_checkpoint_release(path, fd);
        return false;
    }
    fclose(t);
    unlink(tmp);
    *lock = fd;
    return true;
}

void q7d_checkpoint_release(const char *path, int lock)
{
    if (lock < 0) return;
    char target[4104], lockpath[4104];
    /* removed while still held: no other run can have taken it meanwhile */
    if (sibling(path, ".lock", target, lockpath, sizeof lockpath)) unlink(lockpath);
    close(lock);
}

/* Two identities of one file name differ when both are known. */
static bool other_file(const file_identity *a, const file_identity *b)
{
    return a->sha256[0] && b->sha256[0] && strcmp(a->sha256, b->sha256) != 0;
}

/* Every column's library is the file the checkpoint ran, and so is q7pred. */
static bool same_files(const q7d_results *r, const q7d_results *from, char *err, size_t errsize)
{
    for (unsigned k = 0; k < r->ncols && k < from->ncols; k++) {
        const file_identity *now = &r->col[k].file, *then = &from->col[k].file;
        if (r->col[k].kind == Q7D_LIB && other_file(now, then))
            return snprintf(err, errsize, "--resume: the checkpoint ran %s as '%s' (SHA-256 %s), this run loads '%s' "
                            "(SHA-256 %s): another library", r->col[k].name, then->path, then->sha256, now->path,
                            now->sha256), false;
    }
    if (other_file(&r->prov.tool, &from->prov.tool))
        return snprintf(err, errsize, "--resume: the checkpoint was made by '%s' (SHA-256 %s), this is '%s' (SHA-256 "
                        "%s): another q7pred build", from->prov.tool.path, from->prov.tool.sha256, r->prov.tool.path,
                        r->prov.tool.sha256), false;
    return true;
}

/* No unit claims more cases than its slice has. */
static bool within_slices(const q7d_results *from, char *err, size_t errsize)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            uint64_t n = from->selected[l] ? q7d_corpus_size(&from->params, q7_leaf_at(l), (q7d_corpus)c) : 0, lo, hi;
            q7d_shard_range(n, from->shard_k, from->shard_n, &lo, &hi);
            if (from->unit[l][c].cases > hi - lo)
                return snprintf(err, errsize, "--resume: unit %s %s of the checkpoint has %llu cases, more than its "
                                "%llu", q7_leaf_at(l)->suffix, q7d_corpus_name((q7d_corpus)c),
                                (unsigned long long)from->unit[l][c].cases, (unsigned long long)(hi - lo)), false;
        }
    return true;
}

bool q7d_resume_fits(const q7d_results *r, const q7d_results *from, char *err, size_t errsize)
{
    char what[64];
    if (from->merged) return snprintf(err, errsize, "--resume: the file is a merged report, not a checkpoint"), false;
    if (from->shard_k != r->shard_k || from->shard_n != r->shard_n)
        return snprintf(err, errsize, "--resume: the checkpoint is of shard %u/%u, this run is %u/%u", from->shard_k,
                        from->shard_n, r->shard_k, r->shard_n), false;
    if (!q7d_same_params(from, r, what, sizeof what))
        return snprintf(err, errsize, "--resume: the checkpoint was run with different %s", what), false;
    return same_files(r, from, err, errsize) && within_slices(from, err, errsize);
}

bool q7d_resume_take(q7d_results *r, const q7d_results *from)
{
    bool ok = true;
    memcpy(r->unit, from->unit, sizeof r->unit);
    memcpy(r->common, from->common, sizeof r->common);
    for (size_t i = 0; i < from->nmismatches; i++) ok &= q7d_results_add_mismatch(r, &from->mismatches[i]);
    for (size_t i = 0; i < from->ncrashes; i++) ok &= q7d_results_add_crash(r, &from->crashes[i]);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!from->map[l]) continue;
        q7d_map *m = q7d_results_map(r, (unsigned)l);
        if (m) *m = *from->map[l];
        ok &= m != NULL;
    }
    return ok;
}
