/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The statements that are not instructions (parse_state.h): REG = VALUE, a whole
 * register's raw value or its lanes in a format (each lane's literal read
 * by literal.c), and print REG [as FORMAT].
 */
#include <ctype.h>
#include <string.h>

#include "parse_state.h"

/* ---------------------------------------------------------------- init */

static const char FORMATS[] = "2nx8, nx16, n_2x32, nxf16, n_2xf32";

/* Digits of one radix (0x hex, 0b binary, else decimal), whatever their size. */
static bool well_formed_number(const char *s, size_t n)
{
    bool hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    bool bin = n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B');
    size_t i = hex || bin ? 2 : 0;
    if (i >= n) return false;
    for (; i < n; i++)
        if (hex ? !isxdigit((unsigned char)s[i]) : bin ? (s[i] != '0' && s[i] != '1') : !isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool raw_value(pctx *c, stmt *st, const tok *t)
{
    if (st->reg.cls == EXEC_V) {
        if (t->n < 3 || t->s[0] != '0' || (t->s[1] != 'x' && t->s[1] != 'X') || t->n - 2 > 128)
            return prog_fail(c, t->col,
                             "a whole-vector value is 0x and 1 to 128 hex digits, got " TOKF
                             " (for lanes write a format first: v0 = nx16 all 1)", TOKA(t));
        for (size_t i = 0; i < t->n - 2; i++) {
            char ch = t->s[t->n - 1 - i];
            if (!isxdigit((unsigned char)ch))
                return prog_fail(c, t->col + (unsigned)(t->n - 1 - i), "expected a hex digit, got '%c'", ch);
            unsigned d = (unsigned)(isdigit((unsigned char)ch) ? ch - '0' : tolower((unsigned char)ch) - 'a' + 10);
            st->value.u8[i / 2] |= (uint8_t)(d << (4 * (i % 2)));
        }
        return true;
    }
    uint64_t v;
    if (!prog_parse_u64(t->s, t->n, &v) && well_formed_number(t->s, t->n))
        return prog_fail(c, t->col, TOKF " does not fit a 64-bit register (at most 0xffffffffffffffff)", TOKA(t));
    if (!prog_parse_u64(t->s, t->n, &v))
        return prog_fail(c, t->col,
                         "expected a lane format (%s) or a 64-bit value (0x hex, 0b binary or decimal), got " TOKF,
                         FORMATS, TOKA(t));
    st->value.u64[0] = v;
    return true;
}

static bool put_lanes(stmt *st, q7_lanefmt f, unsigned from, unsigned count, uint32_t x)
{
    for (unsigned k = from; k < from + count; k++) {
        if (st->reg.cls == EXEC_V) q7v_set_lane(&st->value, f, k, x);
        else st->value.u64[0] = q7v_set_field(st->value.u64[0], f, k, x);
    }
    return true;
}

static bool lane_value(pctx *c, const stmt *st, q7_lanefmt f, const tok *t, uint32_t *x)
{
    char why[256];
    if (t->kind != T_WORD) return prog_fail(c, t->col, "expected a lane value, got '%.*s'", TOKA(t));
    if (!prog_lane_literal(t->s, t->n, f, st->reg.cls != EXEC_V, x, why, sizeof why))
        return prog_fail(c, t->col, "%s", why);
    return true;
}

bool prog_parse_init(pctx *c, stmt *st)
{
    const tok *t = c->t;
    size_t n = c->nt;
    int r = prog_reg(c, &t[0], &st->reg);
    if (r < 0) return false;
    if (r == 0)
        return prog_fail(c, t[0].col, "expected a register (v0-v31, vb0-vb15, fs0-fs7) before '=', got " TOKF,
                         TOKA(&t[0]));
    st->kind = S_SET;
    memset(&st->value, 0, sizeof st->value);
    if (n == 2) return prog_fail(c, c->end_col, "expected a value after '='");
    if (t[2].kind != T_WORD) return prog_fail(c, t[2].col, "expected a value after '=', got '%.*s'", TOKA(&t[2]));
    q7_lanefmt f = q7_lanefmt_find(t[2].s, t[2].n);
    if (f == Q7_LANEFMT_COUNT) {
        if (!raw_value(c, st, &t[2])) return false;
        if (n > 3) return prog_fail(c, t[3].col, "unexpected '%.*s' after the value", TOKA(&t[3]));
        return true;
    }
    unsigned lanes = q7_lane_count(f), filled = 0;
    const char *fname = q7_lanefmt_name(f);
    size_t i = 3;
    uint32_t x;
    if (i == n)
        return prog_fail(c, c->end_col, "expected %u lane values for %s (or 'all VALUE' to broadcast)", lanes, fname);
    if (tok_is(&t[i], "all")) {
        if (i + 1 == n) return prog_fail(c, c->end_col, "expected a value after 'all'");
        if (!lane_value(c, st, f, &t[i + 1], &x)) return false;
        if (i + 2 < n)
            return prog_fail(c, t[i + 2].col, "unexpected '%.*s' after the broadcast value", TOKA(&t[i + 2]));
        return put_lanes(st, f, 0, lanes, x);
    }
    for (;;) {
        const tok *v = &t[i];
        unsigned count = 1;
        if (!lane_value(c, st, f, v, &x)) return false;
        i++;
        if (i < n && t[i].kind == T_STAR) {
            uint64_t k;
            if (i + 1 == n || t[i + 1].kind != T_WORD || !prog_parse_u64(t[i + 1].s, t[i + 1].n, &k) || k < 1 ||
                k > lanes)
                return prog_fail(c, i + 1 < n ? t[i + 1].col : c->end_col,
                                 "expected a repeat count 1-%u after '*'", lanes);
            count = (unsigned)k;
            i += 2;
        }
        if (filled + count > lanes)
            return prog_fail(c, v->col, "too many lane values for %s: it has %u lanes", fname, lanes);
        put_lanes(st, f, filled, count, x);
        filled += count;
        if (i == n) break;
        if (t[i].kind != T_COMMA)
            return prog_fail(c, t[i].col, "expected ',' between lane values, got '%.*s'",
                             TOKA(&t[i]));
        i++;
        if (i == n) return prog_fail(c, c->end_col, "expected a lane value after ','");
    }
    if (filled < lanes)
        return prog_fail(c, c->end_col,
                         "too few lane values for %s: %u given, %u lanes (write 'all VALUE' to broadcast one value)",
                         fname, filled, lanes);
    return true;
}

/* ---------------------------------------------------------------- print */

bool prog_parse_print(pctx *c, stmt *st)
{
    const tok *t = c->t;
    size_t n = c->nt;
    st->kind = S_PRINT;
    st->view = Q7_LANEFMT_COUNT;
    if (n == 1) return prog_fail(c, c->end_col, "expected a register after 'print'");
    int r = prog_reg(c, &t[1], &st->reg);
    if (r < 0) return false;
    if (r == 0)
        return prog_fail(c, t[1].col, "expected a register (v0-v31, vb0-vb15, fs0-fs7) after 'print', got '%.*s'",
                         TOKA(&t[1]));
    if (n == 2) return true;
    if (!tok_is(&t[2], "as"))
        return prog_fail(c, t[2].col, "expected 'as FORMAT' or the end of the line after the register");
    if (n == 3) return prog_fail(c, c->end_col, "expected a lane format after 'as' (%s)", FORMATS);
    st->view = q7_lanefmt_find(t[3].s, t[3].n);
    if (st->view == Q7_LANEFMT_COUNT)
        return prog_fail(c, t[3].col, "unknown lane format '%.*s' (%s)", TOKA(&t[3]), FORMATS);
    if (n > 4) return prog_fail(c, t[4].col, "unexpected '%.*s' after the format", TOKA(&t[4]));
    return true;
}
