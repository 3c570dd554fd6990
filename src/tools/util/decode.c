/* SPDX-License-Identifier: BSD-3-Clause */
/* A leaf's words in the spec's terms (decode.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"

/* An fp16 or fp32 pattern's value: "+inf", "qNaN", "-sNaN", "-0.0",
 * "1.5", "6.1e-05, denormal" (a decimal of up to 9 significant digits,
 * enough to tell fp32 values apart). */
static void fp_text(uint32_t x, unsigned bits, char *buf, size_t size)
{
    unsigned mant_bits = bits == 16 ? 10 : 23, exp_max = bits == 16 ? 31 : 255, bias = bits == 16 ? 15 : 127;
    uint32_t sign = x >> (bits - 1) & 1, exp = x >> mant_bits & exp_max, mant = x & ((1u << mant_bits) - 1);
    const char *s = sign ? "-" : "";
    if (exp == exp_max) {
        if (!mant) snprintf(buf, size, "%sinf", sign ? "-" : "+");
        else snprintf(buf, size, "%s%s", s, mant >> (mant_bits - 1) ? "qNaN" : "sNaN");
        return;
    }
    if (!exp && !mant) {
        snprintf(buf, size, "%s0.0", sign ? "-" : "+");
        return;
    }
    double v = exp ? ldexp(1.0 + ldexp((double)mant, -(int)mant_bits), (int)exp - (int)bias)
                   : ldexp((double)mant, 1 - (int)bias - (int)mant_bits);
    /* a whole number keeps its ".0", as exec's literals read */
    if (v == floor(v) && v < 1e15) snprintf(buf, size, "%s%.1f", s, v);
    else snprintf(buf, size, "%s%.9g%s", s, v, exp ? "" : ", denormal");
}

void q7u_class_names(uint32_t mask, char *buf, size_t size)
{
    static const char *const names[] = { "sign", "zero", "denorm", "normal", "inf", "nan", "snan", "finite" };
    size_t u = 0;
    buf[0] = '\0';
    for (unsigned b = 0; b < 32 && u < size; b++)
        if (mask >> b & 1)
            u += (size_t)snprintf(buf + u, size - u, "%s%s", u ? "|" : "", b < 8 ? names[b] : "?");
    if (!mask) snprintf(buf, size, "none");
}

/* The operand that holds word w of the inputs or the outputs. */
static const q7_operand_info *operand_at(const q7_leaf *leaf, bool input, unsigned w)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    for (unsigned i = 0; i < sh->operand_count; i++) {
        const q7_operand_info *op = &sh->operands[i];
        if ((op->dir == Q7_OPERAND_IN) == input && w >= op->word && w < op->word + op->words) return op;
    }
    return NULL;
}

static void int_text(const q7_leaf *leaf, uint32_t x, char *buf, size_t size)
{
    unsigned bits = leaf->operand_bits;
    uint32_t mask = bits >= 32 ? ~0u : (1u << bits) - 1, top = 1u << (bits - 1);
    bool unsigned_only = strstr(leaf->suffix, "ltu_") || strstr(leaf->suffix, "leu_");
    bool signed_only = !unsigned_only && (!strncmp(leaf->suffix, "lt_", 3) || !strncmp(leaf->suffix, "le_", 3));
    int64_t sv = (x & top) ? (int64_t)(x & mask) - ((int64_t)mask + 1) : (int64_t)(x & mask);
    if (x & ~mask) {   /* DECISIONS.md §2: an integer compare compares the whole 32-bit register */
        snprintf(buf, size, "0x%" PRIx32 " whole, bits above its %u-bit lane", x, bits);
        return;
    }
    if (signed_only || !(x & top)) snprintf(buf, size, "%" PRId64, signed_only ? sv : (int64_t)(x & mask));
    else if (unsigned_only) snprintf(buf, size, "%" PRIu32, x & mask);
    else snprintf(buf, size, "%" PRIu32 " or %" PRId64, x & mask, sv);
}

void q7u_word_text(const q7_leaf *leaf, bool input, unsigned w, uint32_t x, char *buf, size_t size)
{
    const q7_operand_info *op = operand_at(leaf, input, w);
    buf[0] = '\0';
    if (!op || op->words != 1) return;
    q7_family f = leaf->family;
    bool fp = f == Q7_FAMILY_FP_COMPARE || f == Q7_FAMILY_FP_TAIL || f == Q7_FAMILY_CLASSIFY;
    bool compare = f == Q7_FAMILY_INT_COMPARE || fp || leaf->shape == Q7_SHAPE_EXTBI ||
                   (f == Q7_FAMILY_MASK_LOGIC && leaf->field_bits == 1);
    if (input) {
        if (op->width == Q7_WIDTH_OPERAND && fp) {
            unsigned bits = leaf->operand_bits;
            fp_text(bits < 32 ? x & ((1u << bits) - 1) : x, bits, buf, size);
            if (bits < 32 && x >> bits) {
                size_t u = strlen(buf);
                snprintf(buf + u, size - u, " in its low %u bits, bits above them set", bits);
            }
        } else if (op->width == Q7_WIDTH_OPERAND && (f == Q7_FAMILY_INT_COMPARE || f == Q7_FAMILY_FS_BANK)) {
            int_text(leaf, x, buf, size);
        } else if (op->width == Q7_WIDTH_FIELD && leaf->family == Q7_FAMILY_FP_TAIL) {
            snprintf(buf, size, "%s", x & 1 ? "live" : "killed");   /* a lane is live iff its field's bit 0 is set */
        } else if (op->width == Q7_WIDTH_INDEX) {
            snprintf(buf, size, "bit %" PRIu32, x);
        }
        return;
    }
    if (f == Q7_FAMILY_CLASSIFY && op->width == Q7_WIDTH_FIELD) {
        q7u_class_names(x, buf, size);
    } else if (compare && op->width == Q7_WIDTH_FIELD && leaf->field_bits <= 32) {
        uint32_t all = leaf->field_bits >= 32 ? ~0u : (1u << leaf->field_bits) - 1;
        if (x == 0) snprintf(buf, size, "false");
        else if (x == all) snprintf(buf, size, "true");
        else snprintf(buf, size, "not a %u-bit field's false or true", leaf->field_bits);
    }
}

uint32_t q7u_input_classes(const q7_leaf *leaf, const uint32_t *in)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    q7_family f = leaf->family;
    bool fp = f == Q7_FAMILY_FP_COMPARE || f == Q7_FAMILY_FP_TAIL || f == Q7_FAMILY_CLASSIFY;
    bool integer = f == Q7_FAMILY_INT_COMPARE || f == Q7_FAMILY_FS_BANK;
    unsigned bits = leaf->operand_bits, k = 0;
    uint32_t all = 0, any = 0;
    for (unsigned i = 0; i < sh->operand_count && k < 3; i++) {
        const q7_operand_info *op = &sh->operands[i];
        if (op->dir != Q7_OPERAND_IN || op->width != Q7_WIDTH_OPERAND || op->words != 1 || !(fp || integer)) continue;
        uint32_t x = in[op->word], lane = bits >= 32 ? x : x & ((1u << bits) - 1), c = 0;
        if (bits < 32 && x >> bits) c |= Q7U_IN_ABOVE_LANE;
        if (lane >> (bits - 1) & 1) c |= Q7U_IN_NEGATIVE;
        if (fp) {
            unsigned mb = bits == 16 ? 10 : 23;
            uint32_t emax = bits == 16 ? 31 : 255, e = lane >> mb & emax, m = lane & ((1u << mb) - 1);
            if (e == emax && m) c |= Q7U_IN_NAN | (m >> (mb - 1) ? 0 : Q7U_IN_SNAN);
            if (e == emax && !m) c |= Q7U_IN_INF;
            if (!e && !m) c |= Q7U_IN_ZERO | (c & Q7U_IN_NEGATIVE ? Q7U_IN_NEG_ZERO : 0);
            if (!e && m) c |= Q7U_IN_DENORMAL;
        } else if (!lane) {
            c |= Q7U_IN_ZERO;
        }
        all |= c << (8 * k++);
        any |= c;
    }
    return all | any << 24;
}

void q7u_classes_text(const q7_leaf *leaf, uint32_t classes, char *buf, size_t size)
{
    static const char *const fp_names[8] = { "NaN", "a signalling NaN", "infinite", "zero", "-0.0", "denormal",
                                             "negative", "above its lane" };
    static const char *const int_names[8] = { "", "", "", "zero", "", "", "negative (sign bit set)",
                                              "above its lane" };
    bool fp = leaf->family == Q7_FAMILY_FP_COMPARE || leaf->family == Q7_FAMILY_FP_TAIL ||
              leaf->family == Q7_FAMILY_CLASSIFY;
    const char *const *names = fp ? fp_names : int_names;
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    const char *who[4] = { "", "", "", "some input" };
    unsigned k = 0, n = 0;
    for (unsigned i = 0; i < sh->operand_count && k < 3; i++)
        if (sh->operands[i].dir == Q7_OPERAND_IN && sh->operands[i].width == Q7_WIDTH_OPERAND) who[k++] = sh->operands[i].name;
    size_t u = 0;
    buf[0] = '\0';
    for (unsigned g = 0; g < 4 && u < size; g++) {
        if (g < 3 && !who[g][0]) continue;
        if (g == 3 && k < 2) continue;   /* one operand: "some input" says nothing more */
        uint32_t c = classes >> (8 * g) & 0xff;
        /* a class an operand has is not said again for "some input" */
        if (g == 3)
            for (unsigned o = 0; o < 3; o++) c &= ~(classes >> (8 * o) & 0xff);
        for (unsigned b = 0; b < 8 && u < size; b++) {
            /* NaN covers a signalling NaN's word; zero its -0.0 */
            if (!(c >> b & 1) || !names[b][0]) continue;
            if ((1u << b) == Q7U_IN_ZERO && (c & Q7U_IN_NEG_ZERO)) continue;
            if ((1u << b) == Q7U_IN_NAN && (c & Q7U_IN_SNAN)) continue;
            u += (size_t)snprintf(buf + u, size - u, "%s%s is %s", n++ ? ", " : "", who[g], names[b]);
        }
    }
}

void q7u_output_text(const q7_leaf *leaf, unsigned w, uint32_t x, char *buf, size_t size)
{
    char v[96];
    q7u_word_text(leaf, false, w, x, v, sizeof v);
    if (v[0]) snprintf(buf, size, "0x%" PRIx32 " (%s)", x, v);
    else snprintf(buf, size, "0x%08" PRIx32, x);
}
