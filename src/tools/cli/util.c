/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared CLI helpers: errors, number parsing, nearest and absent leaf
 * names, the operands of each leaf (from its shape's row). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "prog/nearest.h"
#include "prove/proof_status.h"
#include "util/escape.h"
#include "util/lib_child.h"
#include "verify/verify.h"

/* One line on stderr: the message escaped for a terminal, so a newline
 * or an escape sequence in an argument cannot break or forge it. */
static void print_error(const char *fmt, va_list ap)
{
    char msg[8192];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fputs("q7pred: ", stderr);
    q7u_esc_write(stderr, msg, ESC_TEXT);
    fputc('\n', stderr);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_error(fmt, ap);
    va_end(ap);
    return CLI_USAGE;
}

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_error(fmt, ap);
    va_end(ap);
    return CLI_FAIL;
}

bool cli_stdout_broken(void)
{
    struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
    struct stat sb;
    return fstat(STDOUT_FILENO, &sb) == 0 && S_ISFIFO(sb.st_mode) && poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

void cli_record_command(char *buf, size_t size, int argc, char **argv)
{
    size_t used = (size_t)snprintf(buf, size, "q7pred");
    for (int i = 0; i < argc; i++) {
        char word[4096];
        if (!q7u_esc_shell_word(word, sizeof word, argv[i]) || used + 1 + strlen(word) + 4 >= size) {
            snprintf(buf + used, size - used, " ...");
            return;
        }
        used += (size_t)snprintf(buf + used, size - used, " %s", word);
    }
}

/* The parser reads (and may cut up, as comma lists are) its own copy of
 * the arguments: the process's argument vector stays as typed (ps). */
static char **copy_args(int argc, char **argv)
{
    char **copy = calloc((size_t)argc + 1, sizeof *copy);
    for (int i = 0; copy && i < argc; i++)
        if (!(copy[i] = strdup(argv[i]))) {
            while (i-- > 0) free(copy[i]);
            free(copy);
            return NULL;
        }
    return copy;
}

int cli_command_main(const cli_command *c, int argc, char **argv)
{
    void *args = calloc(1, c->args_size);
    char **copy = copy_args(argc, argv);
    if (!args || !copy) {
        free(args);
        free(copy);
        return cli_error("%s: out of memory", c->name);
    }
    int rc = c->parse(args, argc, copy);
    if (rc == CLI_OK && c->options && *(const bool *)((const char *)args + c->options->help_field))
        cli_options_help(c->options, stdout);
    else if (rc == CLI_OK) rc = c->run(args);
    if (c->free_args) c->free_args(args);
    free(args);
    for (int i = 0; i < argc; i++) free(copy[i]);
    free(copy);
    return rc;
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

void cli_duration_text(double s, char *buf, size_t size)
{
    if (!(s >= 0)) s = 0;
    if (s < 10) snprintf(buf, size, "%.1f s", s);
    else if (s < 60) snprintf(buf, size, "%.0f s", s);
    else if (s < 3600) snprintf(buf, size, "%d min %d s", (int)(s / 60), (int)s % 60);
    else if (s < 86400 * 100) snprintf(buf, size, "%d h %d min", (int)(s / 3600), (int)s / 60 % 60);
    else snprintf(buf, size, "%.0f days", s / 86400);
}

/* Whether `part` (len bytes) starts s (at 0) or is inside it (anywhere),
 * ASCII case ignored. */
static bool holds(const char *s, const char *part, size_t len, bool anywhere)
{
    for (size_t at = 0; s[at] && (at == 0 || anywhere); at++)
        if (strncasecmp(s + at, part, len) == 0) return true;
    return false;
}

size_t cli_nearest_leaves(const char *name, const q7_leaf **out, size_t max)
{
    static const char prefix[] = "module__xdref_";
    if (strncmp(name, prefix, sizeof prefix - 1) == 0) name += sizeof prefix - 1;
    size_t len = strlen(name), n = 0;
    bool taken[Q7_LEAF_COUNT] = { false };
    /* the rows the name begins, then those it is part of (in table order),
     * then the nearest by edit distance */
    for (int anywhere = 0; anywhere < 2 && len; anywhere++)
        for (size_t i = 0; i < q7_leaf_count() && n < max; i++)
            if (!taken[i] && holds(q7_leaf_at(i)->suffix, name, len, anywhere)) out[n++] = q7_leaf_at(i), taken[i] = true;
    nearest s;
    prog_nearest_init(&s, name, len, max);
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (!taken[i]) prog_nearest_offer(&s, q7_leaf_at(i)->suffix);
    for (size_t k = 0; k < s.n && n < max; k++) out[n++] = q7_leaf_find(s.name[k]);
    return n;
}

/* Whether a and b (ASCII case ignored) differ only by two neighbouring
 * letters swapped: "--lbi" and "--lib". */
static bool one_transposition(const char *a, const char *b)
{
    size_t n = strlen(a), i = 0;
    if (n != strlen(b)) return false;
    while (i < n && tolower((unsigned char)a[i]) == tolower((unsigned char)b[i])) i++;
    return i + 1 < n && tolower((unsigned char)a[i]) == tolower((unsigned char)b[i + 1]) &&
           tolower((unsigned char)a[i + 1]) == tolower((unsigned char)b[i]) && strcasecmp(a + i + 2, b + i + 2) == 0;
}

const char *cli_did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t size)
{
    size_t len = strlen(word), dashes = strspn(word, "-");
    buf[0] = '\0';
    /* a typist's slip first: two letters swapped, then a name cut short
     * (the first the word begins, past its dashes), then the nearest by
     * edit distance, which would take "--lbi" for "--abi" */
    for (size_t i = 0; i < n; i++)
        if (one_transposition(word, names[i])) return snprintf(buf, size, "did you mean %s? ", names[i]), buf;
    for (size_t i = 0; i < n && len >= dashes + 2; i++)
        if (strlen(names[i]) > len && strncasecmp(names[i], word, len) == 0)
            return snprintf(buf, size, "did you mean %s? ", names[i]), buf;
    nearest s;
    prog_nearest_init(&s, word, len, 1);
    for (size_t i = 0; i < n; i++) prog_nearest_offer(&s, names[i]);
    if (s.n && s.dist[0] > 0 && (s.dist[0] <= 2 || s.dist[0] * 3 <= len))
        snprintf(buf, size, "did you mean %s? ", s.name[0]);
    return buf;
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

/* ---- operands of each leaf, from its shape's operand table */

static cli_operand_kind kind_of(q7_width_class w)
{
    if (w == Q7_WIDTH_MASK || w == Q7_WIDTH_MASK8) return CLI_MASK64;
    return w == Q7_WIDTH_VEC ? CLI_VEC512 : CLI_VALUE;
}

/* The CLI operands of one operand of the table: a MASK8 is its eight masks
 * name0..name7. Returns how many. */
static size_t expand(const q7_leaf *leaf, const q7_operand_info *o, cli_operand *ops)
{
    unsigned n = o->width == Q7_WIDTH_MASK8 ? 8 : 1;
    for (unsigned k = 0; k < n; k++) {
        cli_operand *c = &ops[k];
        if (n == 1) snprintf(c->name, sizeof c->name, "%s", o->name);
        else snprintf(c->name, sizeof c->name, "%s%u", o->name, k);
        c->role = o->role[0] ? o->role : NULL;
        c->kind = kind_of(o->width);
        c->bits = q7_operand_bits(leaf, o);
        c->word = o->word + 2 * k;
    }
    return n;
}

/* The operands of the given directions, in ABI order within each. */
static size_t operands_of(const q7_leaf *leaf, const q7_operand_dir *dirs, size_t ndirs,
                          cli_operand *ops)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    size_t n = 0;
    for (size_t d = 0; d < ndirs; d++)
        for (unsigned k = 0; k < sh->operand_count; k++)
            if (sh->operands[k].dir == dirs[d]) n += expand(leaf, &sh->operands[k], ops + n);
    return n;
}

size_t cli_leaf_inputs(const q7_leaf *leaf, cli_operand *ops)
{
    static const q7_operand_dir in[] = { Q7_OPERAND_IN };
    return operands_of(leaf, in, 1, ops);
}

/* As out[] holds them: the result, then the aux words. */
size_t cli_leaf_outputs(const q7_leaf *leaf, cli_operand *ops)
{
    static const q7_operand_dir out[] = { Q7_OPERAND_OUT, Q7_OPERAND_AUX };
    return operands_of(leaf, out, 2, ops);
}

int cli_load_proofs(const char *cmd, const char *path, struct q7d_proofs *out)
{
    char err[1024];
    prv_proof_file *p = prv_proof_file_load(path, err, sizeof err);
    if (!p) return cli_usage_error("%s: --proofs: %s", cmd, err);
    prv_proof_file_fill(p, path, out);
    prv_proof_file_free(p);
    return CLI_OK;
}

int cli_proofs_check(const char *cmd, const char *path, struct q7d_proofs *p, unsigned nlibs,
                     const char *const *names, const char *const *sha, bool foreign)
{
    if (!p->sha256[0]) return CLI_OK;
    for (unsigned i = 0; i < nlibs; i++)
        if (strcmp(sha[i], p->sha256) == 0) return CLI_OK;
    if (foreign) {
        p->foreign = true;
        return CLI_OK;
    }
    char verified[2048] = "";
    size_t used = 0;
    for (unsigned i = 0; i < nlibs && used < sizeof verified; i++)
        used += (size_t)snprintf(verified + used, sizeof verified - used, "%s'%s' (SHA-256 %s)", i ? ", " : "", names[i],
                                 sha[i][0] ? sha[i] : "unknown");
    return cli_usage_error("%s: --proofs '%s' proves '%s' (SHA-256 %s), not %s%s; --foreign-proofs shows them "
                           "anyway, marked as of another library", cmd, path, p->library, p->sha256,
                           nlibs ? "the library verified: " : "a library this run verified (it has no --lib)",
                           verified);
}
