/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checkpoints of a verify run and resuming from one (verify.h). A resumed
 * run takes every unit the checkpoint finished as it stands (counts, cell
 * states, its mismatch and crash records) and runs the others; since the
 * records are kept as the first max_report per leaf in (corpus, index)
 * order whatever order they arrive in, the result is the uninterrupted
 * run's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify/verify.h"

bool q7d_checkpoint_write(const char *path, const q7d_results *r, q7d_report_writer *write, char *err,
                          size_t errsize)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return snprintf(err, errsize, "checkpoint: path too long: %s", path), false;
    FILE *f = fopen(tmp, "w");
    if (!f) return snprintf(err, errsize, "checkpoint: cannot write '%s': %s", tmp, strerror(errno)), false;
    write(f, r);
    bool ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
    int e = errno;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(tmp, path) == 0) return true;
    if (ok) e = errno;
    unlink(tmp);
    snprintf(err, errsize, "checkpoint: cannot write '%s': %s", path, strerror(e));
    return false;
}

bool q7d_checkpoint_claim(const char *path, int *lock, char *err, size_t errsize)
{
    char tmp[4096], lockpath[4096];
    struct stat sb;
    *lock = -1;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp ||
        (size_t)snprintf(lockpath, sizeof lockpath, "%s.lock", path) >= sizeof lockpath)
        return snprintf(err, errsize, "--checkpoint: path too long: %s", path), false;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return snprintf(err, errsize, "--checkpoint: cannot write '%s': %s", path,
                        S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "it is not a regular file"), false;
    int fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return snprintf(err, errsize, "--checkpoint: cannot write '%s': %s", lockpath, strerror(errno)), false;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK)
            return snprintf(err, errsize, "--checkpoint: '%s' is in use by another run of verify (it holds '%s'); "
                            "give this run a checkpoint of its own", path, lockpath), false;
        return snprintf(err, errsize, "--checkpoint: cannot lock '%s': %s", lockpath, strerror(e)), false;
    }
    /* a stale PATH.tmp of a killed run is replaced, as the first write would */
    int t = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (t < 0) {
        snprintf(err, errsize, "--checkpoint: cannot write '%s': %s", tmp, strerror(errno));
        q7d_checkpoint_release(path, fd);
        return false;
    }
    close(t);
    unlink(tmp);
    *lock = fd;
    return true;
}

void q7d_checkpoint_release(const char *path, int lock)
{
    if (lock < 0) return;
    char lockpath[4096];
    /* removed while still held: no other run can have taken it meanwhile */
    if ((size_t)snprintf(lockpath, sizeof lockpath, "%s.lock", path) < sizeof lockpath) unlink(lockpath);
    close(lock);
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
    return true;
}

bool q7d_resume_unit(q7d_results *r, const q7d_results *from, size_t leaf, int corpus, uint64_t cases)
{
    const q7d_unit *u = &from->unit[leaf][corpus];
    if (cases == 0 || u->cases != cases) return false;
    r->unit[leaf][corpus] = *u;
    for (size_t i = 0; i < from->nmismatches; i++)
        if (from->mismatches[i].leaf == leaf && (int)from->mismatches[i].corpus == corpus)
            q7d_results_add_mismatch(r, &from->mismatches[i]);
    for (size_t i = 0; i < from->ncrashes; i++)
        if (from->crashes[i].leaf == leaf && (int)from->crashes[i].corpus == corpus)
            q7d_results_add_crash(r, &from->crashes[i]);
    return true;
}
