/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred prove's documents (docs/report-format.md): the run's rows, every
 * key of its --json report and of the tables it hands the prover, each
 * spelled once (PRV_KEYS), and the writers of the JSON, markdown and
 * JUnit reports (prove_json.c, prove_reports.c), which read the same rows.
 */
#ifndef Q7_PROVE_PROVE_JSON_H
#define Q7_PROVE_PROVE_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "abi/abi_internal.h"
#include "q7pred.h"
#include "verify/verify.h"

#define PRV_KEYS(X)                                                                                         \
    X(library) X(prover) X(abi) X(leaves) X(leaf) X(status) X(seconds) X(reason) X(counterexample)          \
    X(predicted) X(native) X(expected) X(replay) X(summary) X(translator_disagreements) X(interrupted)      \
    X(symbol) X(shape) X(field_bits) X(operand_bits) X(family) X(semantics) X(placement) X(bit_map)         \
    X(order) X(shapes) X(dir) X(name) X(width) X(words) X(word) X(unwritten) X(file) X(q7pred_version) \
    X(command) X(cpu_features) X(functions) X(function) X(function_summary) X(operations) X(kernels)        \
    X(dispatch_reach)

typedef enum prv_key {
#define PRV_KEY_ID(k) PRV_K_##k,
    PRV_KEYS(PRV_KEY_ID)
#undef PRV_KEY_ID
    PRV_KEY_COUNT
} prv_key;
extern const char *const prv_keys[PRV_KEY_COUNT];
#define PRV_KEY(k) (prv_keys[PRV_K_##k])

/* no-obligation: an exported function (--all) that is no operation of the
 * spec's; a leaf always has one, so a leaf's status is below
 * PRV_LEAF_STATUS_COUNT and the leaves' summaries count only those. */
typedef enum prv_status { PRV_PROVEN, PRV_REFUTED, PRV_UNPROVEN, PRV_ABSENT, PRV_NO_OBLIGATION, PRV_STATUS_COUNT } prv_status;
enum { PRV_LEAF_STATUS_COUNT = PRV_NO_OBLIGATION };
/* "proven-binary", "refuted", "unproven", "absent", "no-obligation" */
extern const char *const prv_status_names[PRV_STATUS_COUNT];

enum { PRV_MAX_VALUES = 24 };

/* A named value: an input of a counterexample, an output ("result", "FS3")
 * or a word written outside one ("result+4"); known false: null (a byte
 * never written, or a value the proof cannot predict). */
typedef struct prv_value {
    char name[24];
    char hex[136];
    bool known;
} prv_value;

typedef struct prv_values {
    prv_value v[PRV_MAX_VALUES];
    unsigned n;
} prv_values;

typedef struct prv_row {
    bool selected, done;
    prv_status status;
    double seconds;
    char reason[1024];
    char cpu[160];            /* the CPU features beyond x86-64's baseline its code needs ("avx2 bmi2"), or "" */
    char kernels[768];        /* a vector function's paths: "avx512: proven-binary, kernel_x at 0x..; ..." or "" */
    char dispatch[192];       /* which path its dispatch's feature sets reach: "2464 cases: avx2 172, ..." or "" */
    prv_values counterexample, predicted, expected, native;
    prv_values unwritten;     /* outputs with a word the prediction leaves wholly unwritten (names only) */
    bool replayed;            /* native holds a real call's outputs */
    char replay[256];         /* how the replay went: "agrees", "DISAGREES: ...", "crashed: SIGSEGV" */
    bool disagrees;           /* the prediction and the real call differ: the translator is wrong */
    bool have_in;             /* in holds the counterexample in the table's input words */
    uint32_t in[Q7_MAX_WORDS];
} prv_row;

/* An exported function's row (--all): its symbol and its answer (its
 * counterexample, expected and predicted values by C argument name and
 * "return"; never replayed here). */
typedef struct prv_fn {
    char name[128];
    prv_row row;
} prv_fn;

typedef struct prv_run {
    const char *library, *abi;
    char prover[160];
    const char *command;      /* the command line as typed (cli_record_command) */
    q7d_provenance prov;      /* where, when, with what it ran (as verify's reports) */
    file_identity file;       /* the library's file, when the proof began */
    prv_row row[Q7_LEAF_COUNT];
    unsigned disagreements;
    int interrupted;          /* the signal that cut the run, 0 if none */
    double seconds;
    bool all;                 /* --all: the functions below follow the leaves in every report */
    prv_fn *fn;               /* in the order the prover answered them */
    unsigned nfn, fn_cap;
} prv_run;

/* The row of function `name`, added (not done) if it has none; NULL when
 * out of memory. */
prv_fn *prv_fn_row(prv_run *r, const char *name);
/* The function rows' statuses counted, and how many are done. */
void prv_fn_counts(const prv_run *r, unsigned counts[PRV_STATUS_COUNT], unsigned *done);
/* A function row's reason and counterexample as the reports print them
 * ("...; counterexample a=0x1 b=0x2; spec return=0x1; predicted return=0x0"). */
void prv_fn_evidence(FILE *f, const prv_row *w, void (*put)(FILE *, const char *));
void prv_run_free(prv_run *r);

/* A value of a counterexample (input true) or an output, as a person
 * reads it: "A=0x2174 (0.0168)", "result=0x0 (false)", "result=0x20 (nan)";
 * the hex alone when the value says no more. */
void prv_value_text(const q7_leaf *l, bool input, const prv_value *v, char *buf, size_t size);
/* A refuted leaf's account after its reason, as prove's line prints it:
 * the counterexample decoded, what the spec requires of the outputs that
 * differ and what the leaf gives, the real call, and a `q7pred call` line
 * (tool, library) that reproduces it when the leaf is called as its row
 * says (placed: its shape and order are the table's). */
void prv_refutation_text(FILE *f, const q7_leaf *l, const prv_row *row, const char *tool, const char *lib,
                         bool placed);

/* How many selected rows have each status, and how many are done. */
struct json;
/* One value into v ("0x..."; hex NULL: unknown); {"name": "0x..." | null}
 * or ["name", ...] (each unknown) into v; a value of v by name, or NULL. */
void prv_put_value(prv_values *v, const char *name, const char *hex);
void prv_read_values(const struct json *obj, prv_values *v);
void prv_read_names(const struct json *arr, prv_values *v);
const prv_value *prv_find_value(const prv_values *v, const char *name);

struct q7p_prober;
/* The real call on the counterexample `in` (the shape's input words) through
 * prober, in `shape` with the arguments in `order`: its outputs into
 * row->native, how it went into row->replay; true when it disagrees with
 * row->predicted (row->disagrees set). clobbers: the leaf breaks what its
 * caller relies on, so the outputs are recorded but not compared. */
bool prv_replay(struct q7p_prober *prober, const q7_leaf *l, q7_shape shape, const uint8_t *order, prv_row *row,
                const uint32_t *in, bool clobbers);

void prv_counts(const prv_run *r, unsigned counts[PRV_STATUS_COUNT], unsigned *done, unsigned *selected);

void prv_write_json(FILE *f, const prv_run *r);
void prv_write_markdown(FILE *f, const prv_run *r);
void prv_write_junit(FILE *f, const prv_run *r);

/* The tables the prover is handed: every row of the leaf table with the
 * shape its arguments are passed in (placement[i]: a q7_shape, -1 when a
 * probe found none), their order (order[i], q7_shape_args indices by
 * position; written as names, null when it is the shape's own) and its
 * bit map (maps[i], NULL for none), and every shape's operands in ABI
 * order; with operations (--all), <q7pred.h>'s declaration of every
 * operation of include/q7pred_ops.def ("operations"), the prototypes the
 * clean API is proven on. */
void prv_write_tables(FILE *f, const signed char *placement, const uint8_t (*order)[Q7_MAX_ARGS],
                      const short *const *maps, bool operations);

#endif
