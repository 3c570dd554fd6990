/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred prove's look ahead (cmd_prove.h): --progress, a line on stderr
 * redrawn as the leaves are proven (and every half second between them)
 * with the time left, from the leaves' relative costs (prove/estimate.h)
 * scaled by the time the proven ones took; --dry-run's table of the
 * leaves it would prove, each with the inputs its proof covers and the
 * time it would take, from a calibration that proved a few of them.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_prove.h"
#include "platform/platform_internal.h"
#include "prove/estimate.h"
#include "prove/prove_json.h"

void cli_prove_progress_start(prove_progress *p, bool on, const bool *selected, const bool *weigh)
{
    memset(p, 0, sizeof *p);
    p->on = on;
    p->t0 = q7_now_seconds();
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        p->selected += selected[i];
        if (weigh[i]) p->total_weight += prv_leaf_weight(q7_leaf_at(i));
    }
}

void cli_prove_progress_draw(prove_progress *p, bool final)
{
    if (!p->on) return;
    double t = q7_now_seconds(), el = t - p->t0;
    char bar[31], elapsed[32], left[48] = "estimating";
    int fill = p->selected ? (int)(30.0 * p->done / p->selected) : 30;
    for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    cli_duration_text(el, elapsed, sizeof elapsed);
    /* the rest take as long per unit of cost as the proofs so far did */
    if (p->done_weight > 0) {
        double rest = p->proof_seconds / p->done_weight * (p->total_weight - p->done_weight) - (t - p->last);
        char d[32];
        cli_duration_text(rest > 0 ? rest : 0, d, sizeof d);
        snprintf(left, sizeof left, "about %s left", d);
    }
    if (final) snprintf(left, sizeof left, "done");
    fprintf(stderr, "\r  prove [%s] %u/%u leaves, %s, %-20s", bar, p->done, p->selected, elapsed, left);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

void cli_prove_progress_clear(const prove_progress *p)
{
    if (!p->on) return;
    fprintf(stderr, "\r%*s\r", 100, "");
    fflush(stderr);
}

void cli_prove_progress_leaf(prove_progress *p, const q7_leaf *l, double seconds, bool weigh)
{
    p->done++;
    if (weigh) p->done_weight += prv_leaf_weight(l);
    p->proof_seconds += seconds;
    p->last = q7_now_seconds();
    cli_prove_progress_draw(p, false);
}

/* "2^64": the inputs a leaf's proof covers, every bit of its input words. */
static void inputs_text(const q7_leaf *l, char *buf, size_t size)
{
    snprintf(buf, size, "2^%u", 32 * q7_shape_info_of(l->shape)->in_words);
}

void cli_prove_dry_run_print(const prv_run *cal, const bool *selected, const bool *exported, double wall)
{
    double measured = 0, weight = 0, total = 0;
    char names[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const prv_row *row = &cal->row[i];
        if (!row->selected || !row->done) continue;
        measured += row->seconds;
        weight += prv_leaf_weight(q7_leaf_at(i));
        if (used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s %.2f s", used ? ", " : "",
                                     q7_leaf_at(i)->suffix, row->seconds);
    }
    double factor = weight > 0 ? measured / weight : 1, start = wall > measured ? wall - measured : 0;
    unsigned n = 0, present = 0;
    printf("%-40s %-8s %s\n", "leaf", "inputs", "expected");
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        if (!selected[i]) continue;
        const q7_leaf *l = q7_leaf_at(i);
        char in[16], t[32];
        inputs_text(l, in, sizeof in);
        n++;
        if (!exported[i]) {
            printf("%-40s %-8s absent (not exported)\n", l->suffix, in);
            continue;
        }
        present++;
        double s = prv_leaf_weight(l) * factor;
        total += s;
        cli_duration_text(s, t, sizeof t);
        printf("%-40s %-8s %s\n", l->suffix, in, t);
    }
    char t[32], s[32];
    cli_duration_text(total + start, t, sizeof t);
    cli_duration_text(wall, s, sizeof s);
    printf("TOTAL %u leaves, %u exported: about %s on this machine (the prover's start %.1f s, then the proofs; "
           "calibration in %s: %s); nothing was written\n", n, present, t, start, s, names[0] ? names : "none proven");
}
