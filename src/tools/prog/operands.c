/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An instruction's operands (parse_state.h), by its kind's row of the EXEC column
 * of q7pred_veckinds.def: parsed in the row's order and classes, checked
 * (the register file, the bit index's range, fsN's own index), and encoded
 * into the record's fields.
 */
#include <string.h>

#include "exec_kinds.h"
#include "parse_state.h"

/* ---------------------------------------------------------------- instructions */

/* Each kind's operands (the EXEC column of q7pred_veckinds.def): classes
 * (v vector, b vbool, f FS, i bit index), their record fields (encode_op),
 * the class written (read by run.c's prog_insn_writes, not here) and their
 * names. */
static const struct {
    const char *cls, *field;
    int writes;
    const char *names[EXEC_MAX_OPERANDS];
} sigs[Q7V_KIND_COUNT] = {
#define VKIND(kind) [Q7V_##kind] = { EXEC_OPERANDS_##kind },
#include "q7pred_veckinds.def"
#undef VKIND
};

static void signature(const q7v_op *op, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; sigs[op->kind].cls[i] && used < cap; i++) {
        const char *name = sigs[op->kind].names[i];
        bool opt = op->kind == Q7V_FSLTU && i == 0;
        used += (size_t)snprintf(buf + used, cap - used, "%s%s%s%s", i ? ", " : "", opt ? "[" : "", name,
                                 opt ? "]" : "");
    }
}

static bool operand(pctx *c, stmt *st, const tok *t, char cls, const char *name, unsigned pos)
{
    static const exec_regclass of[128] = { ['v'] = EXEC_V, ['b'] = EXEC_VB, ['f'] = EXEC_FS };
    const q7v_op *op = st->op;
    if (cls == 'i') {
        unsigned max = op->kind == Q7V_INJBI ? 7 : q7_lane_bits(op->fmt) - 1;
        uint64_t v;
        if (!prog_parse_u64(t->s, t->n, &v))
            return prog_fail(c, t->col, "%s operand %u (%s): expected a bit index 0-%u, got " TOKF, op->mnemonic, pos,
                             name, max, TOKA(t));
        if (v > max)
            return prog_fail(c, t->col, "%s operand %u (%s): bit index " TOKF " is out of range (0-%u%s)", op->mnemonic,
                             pos, name, TOKA(t), max,
                             op->kind == Q7V_INJBI ? ": injbi_8_8_1_32 reaches bits 0-7 of a lane" : "");
        st->imm = (uint32_t)v;
        return true;
    }
    exec_reg r;
    int ok = prog_reg(c, t, &r);
    if (ok < 0) return false;
    const struct prog_regfile *want = &prog_regfiles[of[(unsigned char)cls]];
    if (ok == 0 || r.cls != of[(unsigned char)cls])
        return prog_fail(c, t->col, "%s operand %u (%s): expected a %s %s, got " TOKF, op->mnemonic, pos, name,
                         want->name, want->range, TOKA(t));
    if (op->kind == Q7V_FSLTU && r.cls == EXEC_FS && r.idx != op->fs_index)
        return prog_fail(c, t->col, "%s writes fs%u, not fs%u", op->mnemonic, op->fs_index, r.idx);
    st->opnd[st->nopnd++] = r;
    return true;
}

bool prog_parse_op(pctx *c, stmt *st, const q7v_op *op)
{
    const tok *t = c->t, *args[EXEC_MAX_OPERANDS + 1];
    size_t n = c->nt, nargs = 0;
    st->kind = S_OP;
    st->op = op;
    st->nopnd = 0;
    for (size_t i = 1; i < n;) {
        if (t[i].kind != T_WORD) return prog_fail(c, t[i].col, "expected an operand, got '%.*s'", TOKA(&t[i]));
        if (nargs <= EXEC_MAX_OPERANDS) args[nargs] = &t[i];
        nargs++;
        if (++i == n) break;
        if (t[i].kind != T_COMMA)
            return prog_fail(c, t[i].col, "expected ',' between operands, got '%.*s'",
                             TOKA(&t[i]));
        if (++i == n) return prog_fail(c, c->end_col, "expected an operand after ','");
    }
    const char *cls = sigs[op->kind].cls;
    size_t want = strlen(cls);
    bool implicit_fs = op->kind == Q7V_FSLTU && nargs == want - 1;
    if (nargs != want && !implicit_fs) {
        char sig[160];
        signature(op, sig, sizeof sig);
        return prog_fail(c, nargs > want ? args[want]->col : c->end_col, "%s expects %zu operand%s (%s), got %zu",
                         op->mnemonic, want, want == 1 ? "" : "s", sig, nargs);
    }
    if (implicit_fs) st->opnd[st->nopnd++] = (exec_reg){ EXEC_FS, op->fs_index };
    for (size_t k = implicit_fs ? 1 : 0, a = 0; k < want; k++, a++)
        if (!operand(c, st, args[a], cls[k], sigs[op->kind].names[k], (unsigned)a + 1)) return false;
    return true;
}

/* The operands of an instruction into d, a, b, x (code.h): each one into
 * its field of its kind's row, n the next nibble of x. */
exec_insn prog_encode_op(const stmt *st)
{
    exec_insn i = { (uint8_t)st->op->id, 0, 0, 0, 0 };
    const char *cls = sigs[st->op->kind].cls, *field = sigs[st->op->kind].field;
    unsigned reg = 0, nibble = 0;
    for (size_t k = 0; cls[k]; k++) {
        uint32_t x = cls[k] == 'i' ? st->imm : st->opnd[reg++].idx;
        switch (field[k]) {
        case 'd': i.d = (uint8_t)x; break;
        case 'a': i.a = (uint8_t)x; break;
        case 'b': i.b = (uint8_t)x; break;
        case 'x': i.x = x; break;
        default: i.x |= x << (4 * nibble++); break;
        }
    }
    return i;
}
