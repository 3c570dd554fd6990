/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred call`: one call of one leaf through its exported ABI symbol (or
 * another library's), operands parsed and printed by the shape's row.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "platform/platform_internal.h"
#include "prog/program.h"
#include "report/report.h"
#include "util/process.h"
#include "verify/oracles.h"

typedef struct call_args {
    bool help, raw, words_only;
    double timeout;
    uint32_t xstate_size;
    const char *lib;
    const q7_leaf *leaf;
    uint32_t in[Q7_MAX_WORDS];
    char *pos[64];   /* LEAF and its ARGs */
    int npos;
} call_args;

static int call_operand(void *v, char *arg, bool after_options);

#define CLI_OPTIONS_ARGS call_args
static const cli_option call_rows[] = {
#include "cli/options/call.def"
};
/* Options may stand anywhere before "--"; an operand may start with one
 * dash ("-1"). */
CLI_OPTIONS_OPERANDS(call, call_operand, true);

/* Strips "0x" and leading zeros; returns the remaining digits, or NULL if
 * s is not 0x followed by hex digits only. */
static const char *hex_digits(const char *s)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || s[2] == '\0') return NULL;
    for (const char *p = s + 2; *p; p++)
        if (!strchr("0123456789abcdefABCDEF", *p)) return NULL;
    s += 2;
    while (s[0] == '0' && s[1] != '\0') s++;
    return s;
}

/* Parses a hex number of up to 32*nwords bits into words, low word first. */
static bool parse_wide_hex(const char *s, unsigned nwords, uint32_t *words, const char **why)
{
    const char *d = hex_digits(s);
    if (!d) {
        *why = "is not a hex number (a 512-bit vector is given as 0x...)";
        return false;
    }
    size_t n = strlen(d);
    if (n > 8 * (size_t)nwords) {
        *why = "is wider than 512 bits (more than 128 hex digits)";
        return false;
    }
    memset(words, 0, nwords * sizeof *words);
    for (size_t i = 0; i < n; i++) { /* digit i from the right is nibble i */
        char c = d[n - 1 - i];
        uint32_t v = (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        words[i / 8] |= v << (4 * (i % 8));
    }
    return true;
}

/* "A B" */
static void operand_names(const cli_operand *ops, size_t n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", ops[i].name);
}

static int count_error(const q7_leaf *l, const cli_operand *ops, size_t nops, int got)
{
    char names[128];
    operand_names(ops, nops, names, sizeof names);
    unsigned words = q7_shape_info_of(l->shape)->in_words;
    if (ops[0].kind == CLI_VALUE)
        return cli_usage_error("call: %s takes %zu argument%s (%s), got %d", l->suffix, nops,
                               nops == 1 ? "" : "s", names, got);
    return cli_usage_error("call: %s takes %zu argument%s (%s, %s) or %u (%s 32-bit words, "
                           "low word first), got %d",
                           l->suffix, nops, nops == 1 ? "" : "s", names,
                           ops[0].kind == CLI_VEC512 ? "a 512-bit vector in hex" : "64-bit masks",
                           words, nops == 1 ? "its" : "their", got);
}

/* The lane format whose literals operand op of leaf l takes (exec's), or
 * -1: the A and B of the fp compares and classify are fp lanes of the
 * leaf's operand width, those of the integer compares integer lanes. */
static int lane_of(const q7_leaf *l, const cli_operand *op)
{
    if (op->kind != CLI_VALUE || op->bits != l->operand_bits || op->role) return -1;
    bool fp = l->family == Q7_FAMILY_FP_COMPARE || l->family == Q7_FAMILY_FP_TAIL || l->family == Q7_FAMILY_CLASSIFY;
    bool in = l->family == Q7_FAMILY_INT_COMPARE || l->family == Q7_FAMILY_FS_BANK;
    switch (op->bits) {
    case 8: return in ? Q7_2NX8 : -1;
    case 16: return fp ? Q7_NXF16 : in ? Q7_NX16 : -1;
    case 32: return fp ? Q7_N_2XF32 : in ? Q7_N_2X32 : -1;
    default: return -1;
    }
}

/* Reads the ARGs into in[]; returns CLI_OK or the usage error's status. */
static int parse_inputs(const q7_leaf *l, bool raw, int argc, char **argv, uint32_t *in)
{
    cli_operand ops[Q7_MAX_WORDS];
    size_t nops = cli_leaf_inputs(l, ops);
    unsigned words = q7_shape_info_of(l->shape)->in_words;
    bool as_words = ops[0].kind != CLI_VALUE && (unsigned)argc == words && words != nops;
    if ((size_t)argc != nops && !as_words) return count_error(l, ops, nops, argc);

    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *why = NULL;
        uint64_t v = 0;
        char what[64];
        if (as_words) { /* word i of the generic layout */
            const cli_operand *op = &ops[0];
            for (size_t k = 0; k < nops; k++)
                if (ops[k].word <= (unsigned)i) op = &ops[k];
            snprintf(what, sizeof what, "%s word %u", op->name, (unsigned)i - op->word);
            bool number = cli_parse_uint(arg, 64, &v, &why);
            if (!number && !strstr(why, "wider"))
                return cli_usage_error("call: argument %d (%s) '%s' %s (give hex 0x..., binary "
                                       "0b... or decimal)",
                                       i + 1, what, arg, why);
            if (!number || v >> 32)
                return cli_usage_error("call: argument %d (%s) '%s' is wider than a 32-bit word",
                                       i + 1, what, arg);
            in[i] = (uint32_t)v;
            continue;
        }
        const cli_operand *op = &ops[i];
        int name_len = (int)sizeof op->name;   /* bounded for the compiler's truncation check */
        if (op->role) snprintf(what, sizeof what, "%.*s, %s", name_len, op->name, op->role);
        else snprintf(what, sizeof what, "%.*s", name_len, op->name);
        if (op->kind == CLI_VEC512) {
            if (!parse_wide_hex(arg, 16, in + op->word, &why))
                return cli_usage_error("call: argument %d (%s) '%s' %s", i + 1, what, arg, why);
            continue;
        }
        int lane = raw ? -1 : lane_of(l, op);
        if (lane >= 0) {
            char lwhy[256];
            uint32_t x;
            if (!prog_lane_literal(arg, strlen(arg), (q7_lanefmt)lane, false, &x, lwhy, sizeof lwhy))
                return cli_usage_error("call: argument %d (%s) '%s': %s", i + 1, what, arg, lwhy);
            in[op->word] = x;
            continue;
        }
        unsigned bits = op->kind == CLI_MASK64 ? 64 : raw ? 32 : op->bits;
        bool number = cli_parse_uint(arg, 64, &v, &why);
        if (!number && !strstr(why, "wider"))
            return cli_usage_error("call: argument %d (%s) '%s' %s (give hex 0x..., binary "
                                   "0b... or decimal)",
                                   i + 1, what, arg, why);
        if (!number || (bits < 64 && v >> bits)) {
            if (op->kind == CLI_MASK64)
                return cli_usage_error("call: argument %d (%s) '%s' is wider than a 64-bit mask",
                                       i + 1, what, arg);
            if (raw)
                return cli_usage_error("call: argument %d (%s) '%s' is wider than the 32-bit "
                                       "argument register",
                                       i + 1, what, arg);
            return cli_usage_error("call: argument %d (%s) '%s' is wider than %u bit%s, the width "
                                   "of operand %s of %s (--raw passes the whole 32-bit register)",
                                   i + 1, what, arg, bits, bits == 1 ? "" : "s", op->name,
                                   l->suffix);
        }
        if (op->kind == CLI_MASK64) vbool_to_words(v, in + op->word);
        else in[op->word] = (uint32_t)v;
    }
    return CLI_OK;
}

/* "in: A = 0x3c00 (1.0), B = 0x7e00 (qnan)": each fp or int value as its
 * pattern and as exec reads it back; nothing for a leaf without them. */
static void print_inputs(const q7_leaf *l, const uint32_t *in, bool raw)
{
    cli_operand ops[Q7_MAX_WORDS];
    size_t n = cli_leaf_inputs(l, ops);
    const char *sep = "in: ";
    for (size_t i = 0; i < n; i++) {
        int lane = lane_of(l, &ops[i]);
        if (lane < 0) continue;
        uint32_t x = in[ops[i].word];
        unsigned bits = q7_lane_bits((q7_lanefmt)lane);
        char value[64];
        if (raw && bits < 32 && x >> bits) snprintf(value, sizeof value, "a whole register, above the lane");
        else if (q7_lanefmt_is_fp((q7_lanefmt)lane)) prog_format_lane(value, sizeof value, x, (q7_lanefmt)lane, false);
        else {
            uint32_t top = 1u << (bits - 1), mask = bits == 32 ? ~0u : (1u << bits) - 1;
            if (x & top) snprintf(value, sizeof value, "%u, or -%u signed", x, (~x & mask) + 1);
            else snprintf(value, sizeof value, "%u", x);
        }
        printf("%s%s = 0x%0*x (%s)", sep, ops[i].name, (int)(bits / 4), x, value);
        sep = ", ";
    }
    if (*sep == ',') putchar('\n');
}

static void print_outputs(const q7_leaf *l, const uint32_t *out, bool words_only)
{
    const q7_shape_info *s = q7_shape_info_of(l->shape);
    if (words_only) {
        for (unsigned w = 0; w < s->out_words; w++) printf("%s0x%08x", w ? " " : "", out[w]);
        putchar('\n');
        return;
    }
    cli_operand ops[Q7_MAX_WORDS];
    size_t n = cli_leaf_outputs(l, ops);
    int label = 0;
    for (size_t i = 0; i < n; i++)
        if ((int)strlen(ops[i].name) > label) label = (int)strlen(ops[i].name);
    for (size_t i = 0; i < n; i++) {
        const cli_operand *op = &ops[i];
        const uint32_t *w = out + op->word;
        printf("%-*s = 0x", label, op->name);
        if (op->kind == CLI_VALUE) {
            printf("%0*x\n", (int)((op->bits + 3) / 4), w[0]);
            continue;
        }
        unsigned nw = op->kind == CLI_MASK64 ? 2 : 16;
        for (unsigned k = nw; k-- > 0;) printf("%08x", w[k]);
        /* The vector's sixteen words go on a line of their own. */
        printf(op->kind == CLI_VEC512 ? "\n%*s   words" : "  words", label, "");
        for (unsigned k = 0; k < nw; k++) printf(" 0x%08x", w[k]);
        putchar('\n');
    }
}

/* The leaf of `name`, or a usage error naming why there is none. */
static const q7_leaf *find_leaf(const char *name, int *status)
{
    const q7_leaf *l = q7_leaf_find(name);
    if (l) return l;
    const q7_leaf *near[3];
    size_t n = cli_nearest_leaves(name, near, 3);
    char list[256] = "";
    for (size_t i = 0; i < n; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, near[i]->suffix, sizeof list - strlen(list) - 1);
    }
    const char *why = cli_absent_reason(name);
    if (why)
        *status = cli_usage_error("call: no leaf '%s': %s; nearest: %s", name, why, list);
    else
        *status = cli_usage_error("call: unknown leaf '%s' (nearest: %s; q7pred list shows all)",
                                  name, list);
    return NULL;
}

/* LEAF, then its ARGs. No leaf name starts with '-': in LEAF's place
 * before "--", "-h" is the help and "-x" a mistyped option. */
static int call_operand(void *v, char *arg, bool after_options)
{
    call_args *a = v;
    if (a->npos == 0 && !after_options && arg[0] == '-') {
        if (strcmp(arg, "-h") != 0) return cli_options_unknown(&call_options, arg);
        a->help = true;
        return CLI_OK;
    }
    if (a->npos == (int)(sizeof a->pos / sizeof a->pos[0]))
        return cli_usage_error("call: too many arguments (more than %zu)", sizeof a->pos / sizeof a->pos[0]);
    a->pos[a->npos++] = arg;
    return CLI_OK;
}

static int call_parse(void *args, int argc, char **argv)
{
    call_args *a = args;
    a->timeout = Q7D_DEFAULT_TIMEOUT;
    int rc = cli_options_parse(&call_options, a, argc, argv);
    if (rc != CLI_OK || a->help) return rc;
    if (a->npos == 0) return cli_usage_error("call: missing LEAF (try q7pred call --help)");
    if (a->xstate_size && !a->lib)
        return cli_usage_error("call: --xstate-size without --lib: this library's leaves ignore xstate");
    int status = CLI_OK;
    if (!(a->leaf = find_leaf(a->pos[0], &status))) return status;
    return parse_inputs(a->leaf, a->raw, a->npos - 1, a->pos + 1, a->in);
}

/* "q7pred: call: interrupted (SIGINT) WHEN" on stderr; 128 + the signal. */
static int interrupted(const char *when)
{
    int sig = q7u_interrupted();
    cli_error("call: interrupted (%s) %s", q7u_signal_name(sig), when);
    return 128 + sig;
}

/* The call through --lib's library, in a library child (verify's, so
 * loading it and the call are bounded by --timeout and a crash is a
 * message): CLI_OK with out[] filled, or the exit status of what went
 * wrong (a crash: 128 + its signal, as a shell reports one). */
static int call_lib(const call_args *a, const uint32_t *in, uint32_t *out, bool *answered)
{
    *answered = false;
    char err[1200];
    q7u_interrupt_arm();
    q7d_lib *lib = q7d_lib_open(a->lib, NULL, 0, a->timeout, a->xstate_size, err, sizeof err);
    int rc = CLI_OK;
    if (!lib) rc = q7u_interrupted() ? interrupted("while loading the library") : cli_usage_error("call: %s", err);
    else if (!q7d_lib_exports(lib, a->leaf)) rc = cli_usage_error("call: --lib '%s' has no symbol %s", a->lib, a->leaf->symbol);
    else {
        const uint32_t *inw[Q7_MAX_WORDS];
        uint32_t *outw[Q7_MAX_WORDS];
        for (unsigned w = 0; w < Q7_MAX_WORDS; w++) inw[w] = in + w, outw[w] = out + w;
        q7d_crash crash;
        char how[64];
        bool suspects[Q7_LEAF_COUNT] = { false };
        bool ran = q7d_lib_eval(lib, a->leaf, 1, inw, outw, &crash);
        *answered = ran;
        if (ran && q7d_lib_deaths_between(lib, how, sizeof how, suspects))   /* its answer stands; the process did not */
            rc = cli_error("call: --lib '%s': its child ended after the call returned (%s): the library breaks the "
                           "process it runs in", a->lib, how);
        if (!ran) {
            char text[1024], fault[320];
            crash.leaf = a->leaf->id;
            memcpy(crash.in, in, sizeof crash.in);
            q7r_crash_text(&crash, text, sizeof text);
            q7r_crash_fault(&crash, fault, sizeof fault);
            if (q7u_interrupted()) rc = interrupted("during the call");
            else rc = cli_error("call: --lib '%s': %s%s%s%s%s", a->lib, text, fault[0] ? "; " : "", fault,
                                crash.output[0] ? "; its last output: " : "", crash.output);
            if (!q7u_interrupted() && crash.kind == Q7D_CRASH_SIGNAL) rc = 128 + crash.code;
        }
    }
    q7d_lib_close(lib);
    q7u_interrupt_disarm();
    return rc;
}

static int call_run(void *args)
{
    const call_args *a = args;
    const q7_leaf *l = a->leaf;
    uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS] = { 0 };
    memcpy(in, a->in, sizeof in);
    int rc = CLI_OK;
    bool answered = true;
    if (a->lib) rc = call_lib(a, in, out, &answered);
    else q7_shape_call(l->shape, l->abi, in, out);
    if (!answered) return rc;
    if (!a->words_only) print_inputs(l, in, a->raw);
    print_outputs(l, out, a->words_only);
    return rc;
}

const cli_command cli_cmd_call = {
    "call", "one call of a leaf, every output word in hex", sizeof(call_args), call_parse, call_run, NULL,
    &call_options,
};
