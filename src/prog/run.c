/*
 * The runner of parsed vector programs: the register files, one step per
 * statement through the op table's lane loops, print views, the trace of
 * changed registers and the final JSON state.
 */
#include <string.h>

#include "program.h"

void exec_state_init(exec_state *st) { memset(st, 0, sizeof *st); }

static const char *const class_prefix[3] = { "v", "vb", "fs" };

static q7_vbool *mask_reg(exec_state *st, exec_reg r)
{
    return r.cls == EXEC_VB ? &st->vb[r.idx] : &st->fs.fs[r.idx];
}

static q7_vbool mask_val(const exec_state *st, exec_reg r)
{
    return r.cls == EXEC_VB ? st->vb[r.idx] : st->fs.fs[r.idx];
}

/* The register read as one unsigned integer, bit i = register bit i. */
static void hex_of(const exec_state *st, exec_reg r, char *buf)
{
    if (r.cls == EXEC_V) {
        buf[0] = '0', buf[1] = 'x';
        for (int i = 0; i < 64; i++) snprintf(buf + 2 + 2 * i, 3, "%02x", st->v[r.idx].u8[63 - i]);
    } else {
        snprintf(buf, 19, "0x%016llx", (unsigned long long)mask_val(st, r));
    }
}

static void mark(exec_state *st, exec_reg r) { st->written[r.cls] |= 1u << r.idx; }

/* The registers a statement writes. */
static size_t writes(const exec_stmt *s, exec_reg *out)
{
    if (s->kind == EXEC_INIT) return out[0] = s->reg, 1;
    if (s->kind != EXEC_OP) return 0;
    if (s->op->kind == Q7V_MOVFSV) {
        for (unsigned j = 0; j < EXEC_NFS; j++) out[j] = (exec_reg){ EXEC_FS, j };
        return EXEC_NFS;
    }
    return out[0] = s->opnd[0], 1;
}

static void step(const exec_stmt *s, exec_state *st)
{
    const exec_reg *o = s->opnd;
    const q7v_op *op = s->op;
    q7_vbool m[8];
    if (s->kind == EXEC_INIT) {
        if (s->reg.cls == EXEC_V) st->v[s->reg.idx] = s->value;
        else *mask_reg(st, s->reg) = s->value.u64[0];
        return;
    }
    switch (op->kind) {
    case Q7V_CMP: st->vb[o[0].idx] = q7v_do_cmp(op, &st->v[o[1].idx], &st->v[o[2].idx]); break;
    case Q7V_CMP_T:
        st->vb[o[0].idx] = q7v_do_cmp_t(op, st->vb[o[0].idx], &st->v[o[1].idx], &st->v[o[2].idx], st->vb[o[3].idx]);
        break;
    case Q7V_CLSFY: q7v_do_clsfy(op, &st->v[o[0].idx], &st->v[o[1].idx]); break;
    case Q7V_LOGIC2: st->vb[o[0].idx] = q7v_do_logic(op, st->vb[o[1].idx], st->vb[o[2].idx]); break;
    case Q7V_LOGIC1: st->vb[o[0].idx] = q7v_do_logic(op, st->vb[o[1].idx], 0); break;
    case Q7V_EXTBI: st->vb[o[0].idx] = q7v_do_extbi(op, &st->v[o[1].idx], s->imm); break;
    case Q7V_INJBI: q7v_do_injbi(op, &st->v[o[0].idx], &st->v[o[0].idx], st->vb[o[1].idx], s->imm); break;
    case Q7V_FSLTU: q7v_do_fsltu(op, &st->fs, &st->v[o[1].idx], &st->v[o[2].idx]); break;
    case Q7V_RED8:
        for (int i = 0; i < 8; i++) m[i] = st->vb[o[1 + i].idx];
        st->fs.fs[o[0].idx] = q7v_do_red8(op, m);
        break;
    case Q7V_MOVFSV: q7v_do_movfsv(op, &st->fs, &st->v[o[0].idx]); break;
    case Q7V_MOVVFS: q7v_do_movvfs(op, &st->v[o[0].idx], &st->fs); break;
    case Q7V_KIND_COUNT: break;
    }
}

/* print REG: the whole register in hex; print REG as F: lanes (v) or
 * fields (vb, fs), eight per row, lane 0 first. */
static void print_reg(const exec_stmt *s, const exec_state *st, FILE *out)
{
    char hex[140];
    exec_reg r = s->reg;
    if (s->view == Q7_LANEFMT_COUNT) {
        hex_of(st, r, hex);
        fprintf(out, "%s%u = %s\n", class_prefix[r.cls], r.idx, hex);
        return;
    }
    q7_lanefmt f = s->view;
    unsigned lanes = q7_lane_count(f);
    bool field = r.cls != EXEC_V;
    fprintf(out, "%s%u as %s%s:\n", class_prefix[r.cls], r.idx, q7_lanefmt_name(f), field ? " fields" : "");
    for (unsigned k = 0; k < lanes; k++) {
        char lane[48];
        uint32_t x = field ? q7v_field(mask_val(st, r), f, k) : q7v_lane(&st->v[r.idx], f, k);
        exec_format_lane(lane, sizeof lane, x, f, field);
        if (k % 8 == 0) fprintf(out, "  [%2u-%2u]", k, k + 7);
        fprintf(out, " %s", lane);
        if (k % 8 == 7) fputc('\n', out);
    }
}

static bool same(const exec_state *a, const exec_state *b, exec_reg r)
{
    if (r.cls == EXEC_V) return memcmp(&a->v[r.idx], &b->v[r.idx], sizeof a->v[0]) == 0;
    return mask_val(a, r) == mask_val(b, r);
}

void exec_run(const exec_program *prog, exec_state *st, FILE *out, FILE *trace, const char *file)
{
    for (size_t i = 0; i < prog->n; i++) {
        const exec_stmt *s = &prog->stmts[i];
        exec_reg w[EXEC_NFS];
        size_t nw = writes(s, w);
        if (s->kind == EXEC_PRINT) {
            print_reg(s, st, out);
            continue;
        }
        exec_state before = *st;
        step(s, st);
        for (size_t j = 0; j < nw; j++) mark(st, w[j]);
        if (!trace) continue;
        fprintf(trace, "trace %s:%u: %.*s\n", file, s->line, (int)s->src_len, s->src);
        bool changed = false;
        for (size_t j = 0; j < nw; j++) {
            char now[140], was[140];
            if (same(&before, st, w[j])) continue;
            hex_of(st, w[j], now);
            hex_of(&before, w[j], was);
            fprintf(trace, "  %s%u = %s (was %s)\n", class_prefix[w[j].cls], w[j].idx, now, was);
            changed = true;
        }
        if (!changed) fprintf(trace, "  (no register changed)\n");
    }
}

void exec_print_json(const exec_state *st, FILE *out)
{
    static const unsigned count[3] = { EXEC_NV, EXEC_NVB, EXEC_NFS };
    const char *sep = "\n";
    fputc('{', out);
    for (int cls = EXEC_V; cls <= EXEC_FS; cls++)
        for (unsigned i = 0; i < count[cls]; i++) {
            char hex[140];
            exec_reg r = { (exec_regclass)cls, i };
            if (!(st->written[cls] >> i & 1)) continue;
            hex_of(st, r, hex);
            fprintf(out, "%s  \"%s%u\": \"%s\"", sep, class_prefix[cls], i, hex);
            sep = ",\n";
        }
    fputs(*sep == ',' ? "\n}\n" : "}\n", out);
}
