/* Shared CLI helpers: errors, number parsing, nearest and absent leaf
 * names, the operands of each leaf. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "prog/nearest.h"

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("q7pred: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_USAGE;
}

bool cli_parse_uint(const char *s, unsigned bits, uint64_t *out, const char **why)
{
    int base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) base = 16, p += 2;
    else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) base = 2, p += 2;
    /* strtoull alone would take leading blanks and signs ("-1" as 2^64-1). */
    bool digit = base == 16 ? isxdigit((unsigned char)*p) : base == 2 ? (*p == '0' || *p == '1')
                                                                     : isdigit((unsigned char)*p);
    if (!digit) {
        *why = "is not a number";
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (*end != '\0') {
        *why = "is not a number";
        return false;
    }
    if (errno == ERANGE || (bits < 64 && v >> bits)) {
        *why = "is wider than the operand";
        return false;
    }
    *out = v;
    return true;
}

size_t cli_nearest_leaves(const char *name, const q7_leaf **out, size_t max)
{
    static const char prefix[] = "module__xdref_";
    if (strncmp(name, prefix, sizeof prefix - 1) == 0) name += sizeof prefix - 1;
    nearest s;
    nearest_init(&s, name, strlen(name), max);
    for (size_t i = 0; i < q7_leaf_count(); i++) nearest_offer(&s, q7_leaf_at(i)->suffix);
    for (size_t k = 0; k < s.n; k++) out[k] = q7_leaf_find(s.name[k]);
    return s.n;
}

/* ---- names the shipped library does not export (DECISIONS.md §1) */

static bool ends_with(const char *s, const char *tail)
{
    size_t ls = strlen(s), lt = strlen(tail);
    return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

const char *cli_absent_reason(const char *name)
{
    static const char prefix[] = "module__xdref_";
    if (strncmp(name, prefix, sizeof prefix - 1) == 0) name += sizeof prefix - 1;
    if (strstr(name, "_1_4_16f_16f"))
        return "the fp16 compares have no _1_4 form: an fp16 lane is 16 bits, a 2-bit field "
               "(_1_2_16f_16f); the 4-bit fp form is the fp32 _1_4_32f_32f (spec §2.1)";
    if (strstr(name, "_1_1_") && ends_with(name, "_t"))
        return "there is no _1_1 predicated tail: the _t forms exist only for _1_2_16f_16f "
               "(_2f_t) and _1_4_32f_32f (_4f_t) (spec §2.1)";
    if (strcmp(name, "bitkillf_8_1") == 0)
        return "bitkillf ships only 16_1, 16_2 and 32_4 (spec §6.2)";
    if (strcmp(name, "bitkillt_16_1") == 0)
        return "bitkillt ships only 8_1, 16_2 and 32_4 (spec §6.2)";
    return NULL;
}

/* ---- operands of each leaf, by shape and family */

static const char *const mask_names[8] = { "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7" };
static const char *const fs_names[8] = { "FS0", "FS1", "FS2", "FS3", "FS4", "FS5", "FS6", "FS7" };

static cli_operand value(const char *name, const char *role, unsigned bits, unsigned word)
{
    return (cli_operand){ name, role, CLI_VALUE, bits, word };
}

static cli_operand mask(const char *name, unsigned word)
{
    return (cli_operand){ name, NULL, CLI_MASK64, 64, word };
}

static unsigned log2u(unsigned x)
{
    unsigned n = 0;
    while (x > 1) x >>= 1, n++;
    return n;
}

/* The predicate field width of a bitkill leaf is the suffix's last number
 * (bitkillt_16_2: a 16-bit mask from a 2-bit field); the table's widths
 * are the mask's. */
static unsigned suffix_last_number(const char *suffix)
{
    const char *u = strrchr(suffix, '_');
    return u ? (unsigned)strtoul(u + 1, NULL, 10) : 0;
}

size_t cli_leaf_inputs(const q7_leaf *leaf, cli_operand *ops)
{
    unsigned w = leaf->operand_bits;
    switch (leaf->shape) {
    case Q7_SHAPE_BIN:
        if (leaf->family == Q7_FAMILY_BIT_PLANE) { /* extbi: val, bit */
            ops[0] = value("A", "value", 32, 0);
            ops[1] = value("B", "bit index", log2u(w), 1);
        } else {
            ops[0] = value("A", NULL, w, 0);
            ops[1] = value("B", NULL, w, 1);
        }
        return 2;
    case Q7_SHAPE_ORD:
        ops[0] = value("A", NULL, w, 0);
        ops[1] = value("B", NULL, w, 1);
        return 2;
    case Q7_SHAPE_TER:
        if (leaf->family == Q7_FAMILY_BIT_PLANE) { /* injbi: base, pred, bit */
            ops[0] = value("A", "base", w, 0);
            ops[1] = value("B", "predicate", 1, 1);
            ops[2] = value("C", "bit index", log2u(w), 2);
        } else { /* a _t tail: the predicate is the lane's field */
            ops[0] = value("A", NULL, w, 0);
            ops[1] = value("B", NULL, w, 1);
            ops[2] = value("C", "predicate", leaf->field_bits, 2);
        }
        return 3;
    case Q7_SHAPE_UN:
        if (leaf->family == Q7_FAMILY_BITKILL)
            ops[0] = value("A", "predicate", suffix_last_number(leaf->suffix), 0);
        else
            ops[0] = value("A", NULL, w, 0);
        return 1;
    case Q7_SHAPE_M2:
        ops[0] = mask("A", 0);
        ops[1] = mask("B", 2);
        return 2;
    case Q7_SHAPE_M1:
        ops[0] = mask("A", 0);
        return 1;
    case Q7_SHAPE_RED8:
        for (unsigned i = 0; i < 8; i++) ops[i] = mask(mask_names[i], 2 * i);
        return 8;
    case Q7_SHAPE_VEC2FS:
        ops[0] = (cli_operand){ "vec", NULL, CLI_VEC512, 512, 0 };
        return 1;
    case Q7_SHAPE_FS2VEC:
        for (unsigned i = 0; i < 8; i++) ops[i] = mask(fs_names[i], 2 * i);
        return 8;
    case Q7_SHAPE_COUNT: break;
    }
    return 0;
}

size_t cli_leaf_outputs(const q7_leaf *leaf, cli_operand *ops)
{
    switch (leaf->shape) {
    case Q7_SHAPE_BIN: case Q7_SHAPE_TER: case Q7_SHAPE_UN:
        ops[0] = value("result", NULL, leaf->field_bits, 0);
        return 1;
    case Q7_SHAPE_ORD:
        ops[0] = value("result", NULL, leaf->field_bits, 0);
        ops[1] = value("aux", "reserved, written 0", 32, 1);
        return 2;
    case Q7_SHAPE_M2: case Q7_SHAPE_M1: case Q7_SHAPE_RED8:
        ops[0] = mask("out", 0);
        return 1;
    case Q7_SHAPE_VEC2FS:
        for (unsigned i = 0; i < 8; i++) ops[i] = mask(fs_names[i], 2 * i);
        return 8;
    case Q7_SHAPE_FS2VEC:
        ops[0] = (cli_operand){ "vec", NULL, CLI_VEC512, 512, 0 };
        return 1;
    case Q7_SHAPE_COUNT: break;
    }
    return 0;
}
