/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred list`: the leaf map, from the registry: every leaf with its shape,
 * C arguments, widths, call operands, provenance and semantics.
 */
#include <string.h>

#include "cli.h"
#include "options.h"
#include "prove/proof_status.h"
#include "util/escape.h"
#include "util/json_write.h"

typedef struct list_args {
    bool help, json;
    const char *proofs;   /* --proofs FILE, or NULL */
    q7_family only;   /* Q7_FAMILY_COUNT: every family */
} list_args;

static int family_error(const char *fam)
{
    char names[256] = "";
    for (unsigned f = 0; f < Q7_FAMILY_COUNT; f++) {
        strncat(names, f ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, q7_family_name((q7_family)f), sizeof names - strlen(names) - 1);
    }
    return cli_usage_error("list: unknown family '%s' (families: %s)", fam, names);
}

static int list_family(void *args, const char *opt, char *value)
{
    list_args *a = args;
    (void)opt;
    if ((a->only = q7_family_find(value)) == Q7_FAMILY_COUNT) return family_error(value);
    return CLI_OK;
}

/* The families' lines of the help. */
static void list_families(FILE *f)
{
    for (unsigned i = 0; i < Q7_FAMILY_COUNT; i++)
        fprintf(f, "  %-19s %s\n", q7_family_name((q7_family)i), q7_family_description((q7_family)i));
}

#define CLI_OPTIONS_ARGS list_args
static const cli_option list_rows[] = {
#include "cli/options/list.def"
};
CLI_OPTIONS_NO_OPERAND(list);

/* "A:16 B:16" or "A:8 B:1 C:3"; masks show as :64, the vector as :512. */
static void format_operands(const cli_operand *ops, size_t n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    if (n > 2 && ops[0].kind == CLI_MASK64) { /* m0..m7:64, FS0..FS7:64 */
        snprintf(buf, size, "%s..%s:64", ops[0].name, ops[n - 1].name);
        return;
    }
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s:%u", i ? " " : "", ops[i].name,
                                 ops[i].bits);
}

static const char *kind_name(cli_operand_kind k)
{
    return k == CLI_VALUE ? "value" : k == CLI_MASK64 ? "mask64" : "vec512";
}

/* The `list --json` document's keys, each spelled once, in the order they
 * are written: the top level, a leaf's members, an operand's. */
#define LIST_KEYS(X)                                                                                  \
    X(version) X(count) X(leaves) X(suffix) X(symbol) X(shape) X(arguments) X(in_words) X(out_words) \
    X(aux_words) X(field_bits) X(operand_bits) X(family) X(provenance) X(semantics) X(inputs)        \
    X(outputs) X(proof) X(name) X(kind) X(bits) X(word) X(role)

enum {
#define LIST_KEY_ID(k) LIST_K_##k,
    LIST_KEYS(LIST_KEY_ID)
#undef LIST_KEY_ID
    LIST_KEY_COUNT
};
static const char *const list_keys[LIST_KEY_COUNT] = {
#define LIST_KEY_NAME(k) #k,
    LIST_KEYS(LIST_KEY_NAME)
#undef LIST_KEY_NAME
};
#define LIST_KEY(k) (list_keys[LIST_K_##k])

static void json_operands(jw *w, const char *key, const cli_operand *ops, size_t n)
{
    q7u_jw_key(w, key);
    q7u_jw_array(w, JW_INLINE);
    for (size_t i = 0; i < n; i++) {
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, LIST_KEY(name), ops[i].name);
        q7u_jw_member_string(w, LIST_KEY(kind), kind_name(ops[i].kind));
        q7u_jw_member_uint(w, LIST_KEY(bits), ops[i].bits);
        q7u_jw_member_uint(w, LIST_KEY(word), ops[i].word);
        if (ops[i].role) q7u_jw_member_string(w, LIST_KEY(role), ops[i].role);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
}

/* One leaf's members: the string ones, then the counts; its proof status
 * when there is a report. */
static void json_leaf(jw *w, const q7_leaf *l, const prv_proof_file *proofs)
{
    const q7_shape_info *s = q7_shape_info_of(l->shape);
    cli_operand in[Q7_MAX_WORDS], out[Q7_MAX_WORDS];
    size_t nin = cli_leaf_inputs(l, in), nout = cli_leaf_outputs(l, out);
    const struct { const char *key, *value; } text[] = {
        { LIST_KEY(suffix), l->suffix }, { LIST_KEY(symbol), l->symbol }, { LIST_KEY(shape), s->name }, { LIST_KEY(arguments), s->arguments },
    };
    const struct { const char *key; unsigned value; } counts[] = {
        { LIST_KEY(in_words), s->in_words },     { LIST_KEY(out_words), s->out_words },       { LIST_KEY(aux_words), s->aux_words },
        { LIST_KEY(field_bits), l->field_bits }, { LIST_KEY(operand_bits), l->operand_bits },
    };
    q7u_jw_object(w, JW_INLINE);
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) q7u_jw_member_string(w, text[i].key, text[i].value);
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) q7u_jw_member_uint(w, counts[i].key, counts[i].value);
    q7u_jw_member_string(w, LIST_KEY(family), q7_family_name(l->family));
    q7u_jw_member_string(w, LIST_KEY(provenance), q7_provenance_name(l->provenance));
    q7u_jw_member_string(w, LIST_KEY(semantics), l->semantics);
    json_operands(w, LIST_KEY(inputs), in, nin);
    json_operands(w, LIST_KEY(outputs), out, nout);
    if (proofs) q7u_jw_member_string(w, LIST_KEY(proof), prv_proof_file_status(proofs, l->suffix));
    q7u_jw_end(w);
}

static void list_json(q7_family only, const prv_proof_file *proofs)
{
    size_t shown = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++)
        shown += only == Q7_FAMILY_COUNT || q7_leaf_at(i)->family == only;
    jw w;
    q7u_jw_init(&w, stdout);
    q7u_jw_object(&w, JW_INLINE);
    q7u_jw_member_string(&w, LIST_KEY(version), Q7PRED_VERSION);
    q7u_jw_member_uint(&w, LIST_KEY(count), shown);
    q7u_jw_key(&w, LIST_KEY(leaves));
    q7u_jw_array(&w, JW_LINES);
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (only == Q7_FAMILY_COUNT || q7_leaf_at(i)->family == only) json_leaf(&w, q7_leaf_at(i), proofs);
    q7u_jw_end(&w);
    q7u_jw_end(&w);
}

/* A table per family; column widths fit the rows shown. The PROOF column
 * is there when a proof report is. */
static void list_text(q7_family only, const prv_proof_file *proofs, const char *proofs_path)
{
    enum { COLS = 9 };
    static const char *const head[COLS] = { "SUFFIX", "SHAPE", "C ARGUMENTS (after xstate)",
                                            "FIELD", "OPERAND", "CALL OPERANDS", "PROVENANCE",
                                            "PROOF", "SEMANTICS" };
    size_t width[COLS];
    for (int c = 0; c < COLS; c++) width[c] = strlen(head[c]);
    size_t shown = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        if (only != Q7_FAMILY_COUNT && l->family != only) continue;
        cli_operand in[Q7_MAX_WORDS];
        char buf[160];
        format_operands(in, cli_leaf_inputs(l, in), buf, sizeof buf);
        const char *cell[COLS] = { l->suffix, q7_shape_info_of(l->shape)->name,
                                   q7_shape_info_of(l->shape)->arguments, "", "", buf,
                                   q7_provenance_name(l->provenance),
                                   proofs ? prv_proof_file_status(proofs, l->suffix) : "", l->semantics };
        for (int c = 0; c < COLS; c++)
            if (strlen(cell[c]) > width[c]) width[c] = strlen(cell[c]);
        shown++;
    }
    printf("%zu leaves; each is void module__xdref_<SUFFIX>(void *xstate, C ARGUMENTS), "
           "xstate ignored.\n",
           shown);
    if (prv_proof_file_interrupted(proofs)) {
        fputs("PROOF: '", stdout);
        q7u_esc_write(stdout, proofs_path, ESC_TEXT);
        fputs("' is the report of an interrupted run: a leaf it has no row for is " PRV_NOT_RUN_INTERRUPTED "\n",
              stdout);
    }
    for (unsigned f = 0; f < Q7_FAMILY_COUNT; f++) {
        if (only != Q7_FAMILY_COUNT && f != (unsigned)only) continue;
        printf("\n%s: %s\n ", q7_family_name((q7_family)f), q7_family_description((q7_family)f));
        for (int c = 0; c < COLS; c++)
            if (c != 7 || proofs) printf(" %-*s", c == COLS - 1 ? 0 : (int)width[c], head[c]);
        putchar('\n');
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            const q7_leaf *l = q7_leaf_at(i);
            if ((unsigned)l->family != f) continue;
            const q7_shape_info *s = q7_shape_info_of(l->shape);
            cli_operand in[Q7_MAX_WORDS];
            char buf[160];
            format_operands(in, cli_leaf_inputs(l, in), buf, sizeof buf);
            printf("  %-*s %-*s %-*s %*u %*u %-*s %-*s ", (int)width[0], l->suffix,
                   (int)width[1], s->name, (int)width[2], s->arguments, (int)width[3],
                   l->field_bits, (int)width[4], l->operand_bits, (int)width[5], buf,
                   (int)width[6], q7_provenance_name(l->provenance));
            if (proofs) printf("%-*s ", (int)width[7], prv_proof_file_status(proofs, l->suffix));
            printf("%s\n", l->semantics);
        }
    }
}

static int list_parse(void *args, int argc, char **argv)
{
    list_args *a = args;
    a->only = Q7_FAMILY_COUNT;
    return cli_options_parse(&list_options, a, argc, argv);
}

static int list_run(void *args)
{
    const list_args *a = args;
    char err[4400];
    prv_proof_file *proofs = a->proofs ? prv_proof_file_load(a->proofs, err, sizeof err) : NULL;
    if (a->proofs && !proofs) return cli_usage_error("list: --proofs: %s", err);
    if (a->json) list_json(a->only, proofs);
    else list_text(a->only, proofs, a->proofs);
    prv_proof_file_free(proofs);
    return CLI_OK;
}

const cli_command cli_cmd_list = {
    "list", "the leaf map: symbol, ABI shape, widths, provenance", sizeof(list_args), list_parse, list_run, NULL,
    &list_options,
};
