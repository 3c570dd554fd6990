/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify --dry-run: what the run would check and how long it would take
 * on this machine, from a short calibration: the run itself, with the same
 * oracles, threads and libraries, for one round of at most DRY_RUN_ROUND
 * seconds of each unit (leaf x corpus, this shard's slice), so that a
 * small unit runs whole and a large one long enough for its rate; each
 * unit's time is that rate times its cases, and the start-up (children,
 * the numpy process) is the calibration's wall time its units did not
 * take. Nothing is written.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_verify.h"
#include "report/report.h"
#include "verify/oracles.h"

/* Seconds of each unit the calibration runs at most. */
#define DRY_RUN_ROUND 0.05

/* v with its digits grouped in threes. */
static const char *grouped(uint64_t v, char buf[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

int cli_verify_dry_run(verify_args *a)
{
    q7d_results *r = a->r;
    char err[1024];
    q7d_options o = a->o;
    o.sample_seconds = DRY_RUN_ROUND;
    o.checkpoint = NULL;
    o.resume = NULL;
    o.progress = false;
    int ran = q7d_run(r, &o, err, sizeof err);
    if (ran != 0) return cli_usage_error("verify: %s", err);
    if (r->interrupted) {
        cli_error("verify: --dry-run: interrupted (the calibration did not finish)");
        return 128 + r->interrupted;
    }
    double units = 0, expected = 0;
    uint64_t sampled = 0, total = 0;
    unsigned nunits = 0;
    printf("%-40s %12s %12s %14s %10s %16s %10s\n", "leaf", "grid", "fuzz", "exhaustive", "testfloat", "cases",
           "expected");
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        if (!r->selected[l]) continue;
        const q7_leaf *leaf = q7_leaf_at(l);
        char cell[Q7D_CORPUS_COUNT][32], n[32], t[32];
        uint64_t cases = 0;
        double seconds = 0;
        for (int k = 0; k < Q7D_CORPUS_COUNT; k++) {
            uint64_t size = q7d_corpus_size(&r->params, leaf, (q7d_corpus)k), lo, hi;
            q7d_shard_range(size, r->shard_k, r->shard_n, &lo, &hi);
            const q7d_unit *u = &r->unit[l][k];
            if (size == 0) {
                snprintf(cell[k], sizeof cell[k], "-");
                continue;
            }
            grouped(hi - lo, cell[k]);
            cases += hi - lo;
            units += u->seconds;
            sampled += u->cases;
            nunits++;
            if (u->cases) seconds += u->seconds / (double)u->cases * (double)(hi - lo);
        }
        total += cases;
        expected += seconds;
        cli_duration_text(seconds, t, sizeof t);
        printf("%-40s %12s %12s %14s %10s %16s %10s\n", leaf->suffix, cell[Q7D_GRID], cell[Q7D_FUZZ],
               cell[Q7D_EXHAUSTIVE], cell[Q7D_TESTFLOAT], grouped(cases, n), t);
    }
    double startup = r->wall_seconds > units ? r->wall_seconds - units : 0;
    char n[32], t[32], s[32], c[32];
    cli_duration_text(expected + startup, t, sizeof t);
    printf("TOTAL %s cases: about %s on this machine (%u thread%s; oracles", grouped(total, n), t, r->threads,
           r->threads == 1 ? "" : "s");
    for (unsigned k = 0; k < r->ncols; k++) printf("%s%s", k ? ", " : " ", r->col[k].name);
    cli_duration_text(r->wall_seconds, s, sizeof s);
    printf(")\ncalibration: at most %g s of each of %u units, %s cases in %s, start-up %.2f s; nothing was "
           "written\n", DRY_RUN_ROUND, nunits, grouped(sampled, c), s, startup);
    return CLI_OK;
}
