/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lane literals of vector programs: integers (hex, binary, decimal, negative
 * decimal as two's complement), fp values (decimal correctly rounded to
 * fp16/fp32, inf, qnan, snan, raw 0x bits) and vbool fields; and the
 * inverse, formatting a lane so that it reads back to the same bits.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "program.h"

/* ---------------------------------------------------------------- ints */

bool prog_parse_u64(const char *s, size_t n, uint64_t *out)
{
    unsigned base = 10;
    size_t i = 0;
    uint64_t v = 0;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, i = 2;
    else if (n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, i = 2;
    if (i >= n) return false;
    for (; i < n; i++) {
        unsigned d;
        if (s[i] >= '0' && s[i] <= '9') d = (unsigned)(s[i] - '0');
        else if (s[i] >= 'a' && s[i] <= 'f') d = (unsigned)(s[i] - 'a' + 10);
        else if (s[i] >= 'A' && s[i] <= 'F') d = (unsigned)(s[i] - 'A' + 10);
        else return false;
        if (d >= base || v > (UINT64_MAX - d) / base) return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

static bool has_radix_prefix(const char *s, size_t n)
{
    return n >= 2 && s[0] == '0' && strchr("xXbB", s[1]) != NULL;
}

/* What a lane or field literal of f is, for messages: "an integer nx16
 * lane", "a 2-bit nx16 vbool field". */
static void int_what(char *what, size_t cap, q7_lanefmt f, bool vbool_field)
{
    if (vbool_field) snprintf(what, cap, "a %u-bit %s vbool field", q7_lane_bytes(f), q7_lanefmt_name(f));
    else snprintf(what, cap, "an integer %s lane", q7_lanefmt_name(f));
}

/* An integer lane of f (vbool_field false): unsigned up to 2^bits - 1, or
 * a negative decimal down to -2^(bits-1) (two's complement); or a vbool
 * field of f: unsigned, bits = the lane's byte count. The message is only
 * formatted on failure: this runs for every lane value of a program. */
static bool int_lane(const char *s, size_t n, q7_lanefmt f, bool vbool_field, uint32_t *out, char *why,
                     size_t cap)
{
    unsigned bits = vbool_field ? q7_lane_bytes(f) : q7_lane_bits(f);
    bool allow_negative = !vbool_field;
    uint64_t v, max = bits >= 32 ? 0xffffffffull : (1ull << bits) - 1;
    int tn = (int)(n > 40 ? 40 : n);
    bool neg = allow_negative && n > 1 && s[0] == '-';
    const char *d = neg ? s + 1 : s;
    size_t dn = neg ? n - 1 : n;
    if (prog_parse_u64(d, dn, &v) && v <= (neg ? 1ull << (bits - 1) : max) &&
        !(neg && has_radix_prefix(d, dn))) {
        *out = (uint32_t)((neg ? -v : v) & max);
        return true;
    }
    char range[64], what[48];
    int_what(what, sizeof what, f, vbool_field);
    if (allow_negative)
        snprintf(range, sizeof range, "-%llu..%llu", (unsigned long long)(1ull << (bits - 1)),
                 (unsigned long long)max);
    else
        snprintf(range, sizeof range, "0..%llu", (unsigned long long)max);
    bool hex = has_radix_prefix(d, dn) && (d[1] == 'x' || d[1] == 'X');
    bool bin = has_radix_prefix(d, dn) && !hex;
    /* well-formed digits that do not fit are out of range, not malformed */
    bool digits = dn > (hex || bin ? 2u : 0u) && !(neg && (hex || bin));
    for (size_t i = hex || bin ? 2 : 0; i < dn; i++)
        digits = digits && (hex ? isxdigit((unsigned char)d[i])
                                : bin ? (d[i] == '0' || d[i] == '1') : isdigit((unsigned char)d[i]));
    if (!digits) snprintf(why, cap, "expected %s (%s), got '%.*s'", what, range, tn, s);
    else snprintf(why, cap, "'%.*s' is out of range for %s (%s)", tn, s, what, range);
    return false;
}

/* ---------------------------------------------------------------- fp */

typedef struct fpfmt {
    int prec, emin, emax;
    unsigned bits;
    uint32_t qnan, snan;
} fpfmt;

static const fpfmt F16 = { 11, -14, 15, 16, 0x7e00, 0x7c01 };
static const fpfmt F32 = { 24, -126, 127, 32, 0x7fc00000, 0x7f800001 };

static uint32_t inf_bits(const fpfmt *F) { return (uint32_t)(F->emax - F->emin + 2) << (F->prec - 1); }

/* A decimal literal [+-]digits[.digits][e[+-]digits] (or .digits):
 * normalised to value = 0.D1D2... x 10^exp10 with no leading or trailing
 * zeros in D. Returns false on bad syntax; ndig = 0 for zero. */
static bool decimal_norm(const char *s, size_t n, char *dig, size_t cap, size_t *ndig, long *exp10)
{
    size_t i = 0, nd = 0;
    long point = 0, e = 0;
    bool seen_digit = false, seen_point = false, nonzero = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.') {
            if (seen_point) return false;
            seen_point = true;
        } else if (c >= '0' && c <= '9') {
            seen_digit = true;
            if (c != '0') nonzero = true;
            if (!nonzero) {
                if (seen_point) point--;  /* leading zero after the point */
                continue;
            }
            if (nd >= cap) return false;
            dig[nd++] = c;
            if (!seen_point) point++;
        } else {
            break;
        }
    }
    if (!seen_digit) return false;
    if (i < n) {
        bool eneg = false, edig = false;
        if (s[i] != 'e' && s[i] != 'E') return false;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
        for (; i < n; i++) {
            if (s[i] < '0' || s[i] > '9') return false;
            edig = true;
            if (e < 100000) e = e * 10 + (s[i] - '0');
        }
        if (!edig) return false;
        if (eneg) e = -e;
    }
    while (nd > 0 && dig[nd - 1] == '0') nd--;
    *ndig = nd;
    *exp10 = point + e;
    return true;
}

/* Compares two positive normalised decimals. */
static int decimal_cmp(const char *a, size_t na, long ea, const char *b, size_t nb, long eb)
{
    if (ea != eb) return ea < eb ? -1 : 1;
    for (size_t i = 0; i < na || i < nb; i++) {
        char x = i < na ? a[i] : '0', y = i < nb ? b[i] : '0';
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

enum { MAX_DIGITS = 800 };

bool prog_decimal_to_fp(const char *s, size_t n, unsigned bits, uint32_t *out, bool *overflow)
{
    const fpfmt *F = bits == 16 ? &F16 : &F32;
    char dig[MAX_DIGITS], buf[MAX_DIGITS + 64];
    size_t nd;
    long e10;
    *overflow = false;
    if (n == 0 || n >= sizeof buf || !decimal_norm(s, n, dig, sizeof dig, &nd, &e10)) return false;
    uint32_t sign = s[0] == '-' ? 1u << (F->bits - 1) : 0;
    if (nd == 0 || e10 < -400) {  /* zero, or far below the smallest denormal */
        *out = sign;
        return true;
    }
    if (e10 > 400) {
        *overflow = true;
        return true;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    double a = fabs(strtod(buf, NULL));  /* correctly rounded to double */
    if (a == 0) {  /* below half the smallest denormal of either format */
        *out = sign;
        return true;
    }
    if (isinf(a)) {
        *overflow = true;
        return true;
    }
    int e2;
    (void)frexp(a, &e2);
    int E = e2 - 1 < F->emin ? F->emin : e2 - 1;
    if (E > F->emax) {
        *overflow = true;
        return true;
    }
    int qexp = E - (F->prec - 1);
    double k = ldexp(a, -qexp), whole = floor(k), frac = k - whole;  /* all exact */
    uint32_t m = (uint32_t)whole;
    if (frac > 0.5) {
        m++;
    } else if (frac == 0.5) {
        /* a at a midpoint may be the double rounding of a decimal on either
         * side: decide on the exact decimal expansion of the midpoint */
        char mid[MAX_DIGITS];
        size_t nm;
        long em;
        snprintf(buf, sizeof buf, "%.500e", ldexp(whole + 0.5, qexp));
        if (!decimal_norm(buf, strlen(buf), mid, sizeof mid, &nm, &em)) return false;
        int c = decimal_cmp(dig, nd, e10, mid, nm, em);
        if (c > 0 || (c == 0 && (m & 1))) m++;
    }
    uint32_t r = ((uint32_t)(E - F->emin) << (F->prec - 1)) + m;
    if (r >= inf_bits(F)) {
        *overflow = true;
        return true;
    }
    *out = sign | r;
    return true;
}

static bool word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && strncasecmp(s, w, n) == 0;
}

static bool fp_lane(const char *s, size_t n, const fpfmt *F, uint32_t *out, char *why, size_t cap,
                    const char *what)
{
    const char *body = s;
    size_t bn = n;
    uint32_t sign = 0, inf = inf_bits(F);
    if (has_radix_prefix(s, n)) {  /* raw bit pattern */
        uint64_t v;
        if (!prog_parse_u64(s, n, &v) || v >> F->bits) {
            snprintf(why, cap, "raw bits '%.*s' do not fit a %u-bit %s lane", (int)(n > 40 ? 40 : n), s,
                     F->bits, what);
            return false;
        }
        *out = (uint32_t)v;
        return true;
    }
    if (bn > 0 && (body[0] == '-' || body[0] == '+')) {
        if (body[0] == '-') sign = 1u << (F->bits - 1);
        body++, bn--;
    }
    if (bn > 0 && isalpha((unsigned char)body[0])) {  /* the words; a number starts otherwise */
        if (word_is(body, bn, "inf")) return *out = sign | inf, true;
        if (word_is(body, bn, "qnan") || word_is(body, bn, "nan")) return *out = sign | F->qnan, true;
        if (word_is(body, bn, "snan")) return *out = sign | F->snan, true;
    }
    bool overflow;
    if (!prog_decimal_to_fp(s, n, F->bits, out, &overflow)) {
        snprintf(why, cap,
                 "expected an fp value for %s (decimal, inf, -inf, qnan, snan or 0x raw bits), got '%.*s'", what,
                 (int)(n > 40 ? 40 : n), s);
        return false;
    }
    if (overflow) {
        snprintf(why, cap, "'%.*s' is out of range for %s (largest finite %s); write inf", (int)(n > 40 ? 40 : n),
                 s, what, F == &F16 ? "65504" : "3.4028235e38");
        return false;
    }
    return true;
}

bool prog_lane_literal(const char *s, size_t n, q7_lanefmt f, bool vbool_field, uint32_t *out,
                       char *why, size_t why_cap)
{
    if (!vbool_field && q7_lanefmt_is_fp(f))
        return fp_lane(s, n, q7_lane_bits(f) == 16 ? &F16 : &F32, out, why, why_cap, q7_lanefmt_name(f));
    return int_lane(s, n, f, vbool_field, out, why, why_cap);
}

/* ---------------------------------------------------------------- format */

static double fp_value(uint32_t x, const fpfmt *F)
{
    uint32_t frac = x & ((1u << (F->prec - 1)) - 1);
    int be = (int)((x >> (F->prec - 1)) & ((1u << (F->bits - F->prec)) - 1));
    double v = be == 0 ? ldexp(frac, F->emin - (F->prec - 1))
                       : ldexp(frac + (double)(1u << (F->prec - 1)), be - 1 + F->emin - (F->prec - 1));
    return (x >> (F->bits - 1)) & 1 ? -v : v;
}

/* "1e+04" -> "1e4", "6e-08" -> "6e-8", "1" -> "1.0". */
static void tidy_decimal(char *s)
{
    char *e = strchr(s, 'e');
    if (!e) {
        if (!strchr(s, '.')) strcat(s, ".0");
        return;
    }
    char *p = e + 1, *q = p;
    if (*q == '+') q++;
    else if (*q == '-') *p++ = *q++;
    while (*q == '0' && q[1]) q++;
    memmove(p, q, strlen(q) + 1);
}

static void format_fp(char *buf, size_t cap, uint32_t x, const fpfmt *F)
{
    uint32_t sign = (x >> (F->bits - 1)) & 1, mag = x & ~(1u << (F->bits - 1)) & (uint32_t)((1ull << F->bits) - 1);
    const char *minus = sign ? "-" : "";
    if (mag == inf_bits(F)) {
        snprintf(buf, cap, "%sinf", minus);
        return;
    }
    if (mag > inf_bits(F)) {  /* NaN: by name if canonical, else raw bits */
        if (mag == F->qnan) snprintf(buf, cap, "%sqnan", minus);
        else if (mag == F->snan) snprintf(buf, cap, "%ssnan", minus);
        else snprintf(buf, cap, "0x%0*x", (int)F->bits / 4, x);
        return;
    }
    double v = fp_value(x, F);
    char t[64];
    for (int prec = 1; prec <= 17; prec++) {
        uint32_t back;
        bool overflow;
        snprintf(t, sizeof t - 4, "%.*g", prec, v);
        if (prog_decimal_to_fp(t, strlen(t), F->bits, &back, &overflow) && !overflow && back == x) break;
    }
    tidy_decimal(t);
    snprintf(buf, cap, "%s", t);
}

void prog_format_lane(char *buf, size_t cap, uint32_t x, q7_lanefmt f, bool vbool_field)
{
    if (vbool_field) snprintf(buf, cap, "%x", x);
    else if (q7_lanefmt_is_fp(f)) format_fp(buf, cap, x, q7_lane_bits(f) == 16 ? &F16 : &F32);
    else snprintf(buf, cap, "0x%0*x", (int)q7_lane_bytes(f) * 2, x);
}
