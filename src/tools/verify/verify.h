/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The differential engine behind `q7pred verify` and `q7pred merge`: the
 * same input stream (corpora) driven through independent oracles, every
 * output compared with the reference (the model, `sem`), counted per leaf,
 * corpus and oracle. docs/report-format.md describes the reports.
 */
#ifndef Q7_VERIFY_H
#define Q7_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abi/abi_internal.h"
#include "q7pred.h"
#include "util/file_identity.h"

/* ---------------------------------------------------------------- corpora */

typedef enum q7d_corpus {
    Q7D_GRID,        /* all pairs (singles) of per-type edge sets */
    Q7D_FUZZ,        /* seeded, class-biased random cases */
    Q7D_EXHAUSTIVE,  /* every input of spaces up to exhaustive_max cases */
    Q7D_TESTFLOAT,   /* Berkeley TestFloat testfloat_gen case files */
    Q7D_CORPUS_COUNT
} q7d_corpus;

const char *q7d_corpus_name(q7d_corpus c);

/* Fuzz counts. The four spec categories (TABLES.md §9.2) are totals split
 * evenly over the category's leaves; `other` is per leaf. */
typedef enum q7d_fuzz_category {
    Q7D_FUZZ_FP16_COMPARE,   /* fp16 BIN/ORD compares: 140,000 */
    Q7D_FUZZ_FP32_COMPARE,   /* fp32 BIN/ORD compares: 56,000 */
    Q7D_FUZZ_FP32_CLASSIFY,  /* clsfy_32f_32f: 30,000 */
    Q7D_FUZZ_INT16_COMPARE,  /* 16-bit int compares: 90,000 */
    Q7D_FUZZ_OTHER,          /* every other leaf, per leaf */
    Q7D_FUZZ_CATEGORY_COUNT
} q7d_fuzz_category;

const char *q7d_fuzz_category_name(q7d_fuzz_category c);
q7d_fuzz_category q7d_fuzz_category_of(const q7_leaf *leaf);

/* One TestFloat case file: the function it tests and its cases. */
typedef struct q7d_tf_case {
    uint32_t a, b;
    bool result;
    uint8_t flags;           /* read and kept; the leaves raise no flags */
} q7d_tf_case;

typedef struct q7d_tf_file {
    char *path;
    char function[32];       /* "f16_lt", "f32_eq_signaling", ... */
    char sha256[SHA256_HEX_SIZE];   /* of the bytes read ("" in a report that has none) */
    size_t ncases;
    q7d_tf_case *cases;
} q7d_tf_file;

#define Q7D_MAX_TF_FILES 16
/* The most lines a TestFloat file (or standard input) may have: each is at
 * most 255 bytes and a case 12, so a file costs at most 400 MiB of cases,
 * and an endless stdin ends. */
#define Q7D_TF_MAX_LINES (1u << 25)

/* Everything that defines the input stream; the JSON report records it so
 * a run can be repeated and shards can be merged. */
typedef struct q7d_corpus_params {
    bool enabled[Q7D_CORPUS_COUNT];
    uint64_t seed;
    uint64_t fuzz[Q7D_FUZZ_CATEGORY_COUNT];
    uint64_t exhaustive_max;
    unsigned ntf;
    q7d_tf_file tf[Q7D_MAX_TF_FILES];
} q7d_corpus_params;

#define Q7D_DEFAULT_SEED 20260617u
#define Q7D_GRID_VERSION 1   /* bumped whenever the edge sets change */

void q7d_corpus_defaults(q7d_corpus_params *p);
/* Cases of a leaf in a corpus (0: the corpus does not apply). */
uint64_t q7d_corpus_size(const q7d_corpus_params *p, const q7_leaf *leaf, q7d_corpus c);
/* Fills in[w][j], j < n, with cases lo .. lo+n-1; for the testfloat corpus
 * also expect[j] (the file's result, replicated to the leaf's field). */
void q7d_corpus_fill(const q7d_corpus_params *p, const q7_leaf *leaf, q7d_corpus c,
                     uint64_t lo, size_t n, uint32_t *const in[], uint32_t *expect);
/* One case, in the shape's word layout. */
void q7d_corpus_case(const q7d_corpus_params *p, const q7_leaf *leaf, q7d_corpus c,
                     uint64_t i, uint32_t *in, uint32_t *expect);

/* The leaves a TestFloat function checks: leaf f <-> function if this is
 * true (the ordered compare of the same format and relation). */
bool q7d_tf_function_known(const char *function);
bool q7d_tf_checks_leaf(const char *function, const q7_leaf *leaf);
/* Reads a testfloat_gen output file ("-": standard input, left open). The
 * function is `function` if given,
 * else a first line naming it (testfloat_gen -prefix), else the file name's
 * leading function name. On error returns false with a one-line message. */
bool q7d_tf_read(const char *path, const char *function, q7d_tf_file *out,
                 char *err, size_t errsize);
/* The same from an open stream; path names it in messages and, without
 * a function, tells it by its file name. */
bool q7d_tf_read_stream(FILE *f, const char *path, const char *function, q7d_tf_file *out, char *err,
                        size_t errsize);
void q7d_tf_free(q7d_tf_file *f);

/* ---------------------------------------------------------------- oracles */

/* How a kind's columns come to be (oracles.def's `columns`). */
typedef enum q7d_oracle_columns {
    Q7D_COLUMNS_ALWAYS,     /* one in every run: the reference */
    Q7D_COLUMNS_NAMED,      /* one when --oracles names it (or by default) */
    Q7D_COLUMNS_PER_PATH,   /* one per library: q7d_options.libs (name:PATH, --lib) */
    Q7D_COLUMNS_CORPUS,     /* one when its corpus runs */
} q7d_oracle_columns;

typedef enum q7d_oracle_kind {
#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) Q7D_##id,
#include "oracles.def"
#undef Q7D_ORACLE
    Q7D_ORACLE_KIND_COUNT
} q7d_oracle_kind;

/* A kind's row of oracles.def. */
typedef struct q7d_oracle_info {
    const char *name;
    q7d_oracle_columns columns;
    bool default_on;
    const char *arg;          /* the ARG of name:ARG, NULL: none */
    q7d_corpus corpus;        /* Q7D_COLUMNS_CORPUS: the corpus that has it */
    const char *help;         /* NULL: none */
} q7d_oracle_info;

/* The row of kind k (names.c); NULL outside the enum. */
const q7d_oracle_info *q7d_oracle_info_of(q7d_oracle_kind k);

#define Q7D_MAX_LIBS 8

/* The most columns a run has: a PER_PATH kind's one per library. */
enum {
    Q7D_MAX_COLS = 0
#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) \
    + (Q7D_COLUMNS_##columns == Q7D_COLUMNS_PER_PATH ? Q7D_MAX_LIBS : 1)
#include "oracles.def"
#undef Q7D_ORACLE
};
#define Q7D_NAME_MAX 512

/* A column of the agreement table. */
typedef struct q7d_column {
    q7d_oracle_kind kind;
    char name[Q7D_NAME_MAX];   /* "sem", "host", "numpy", "lib:PATH", "testfloat" */
    char path[Q7D_NAME_MAX];   /* what ran: host path, interpreter+program, realpath */
    bool available;            /* false: the whole column is n/a, `note` says why */
    bool stopped;              /* the oracle was lost mid-run (its process died, a child could not be
                                  restarted): `note` says why */
    char note[Q7D_NAME_MAX];
    char lib[Q7D_NAME_MAX];    /* Q7D_LIB: the path as given */
    char preload[Q7D_NAME_MAX];/* Q7D_LIB: the --preload paths, ':'-separated ("" if none) */
    file_identity file;        /* Q7D_LIB: what the library file was (path "" when unknown) */
    unsigned xstate_size;      /* Q7D_LIB: the bytes of xstate its leaves were passed (0: NULL) */
} q7d_column;

/* ---------------------------------------------------------------- results */

/* Why a cell has no checks. */
typedef enum q7d_cell_state {
    Q7D_CELL_RAN,          /* evaluated (checks may still be 0) */
    Q7D_CELL_NA,           /* this oracle does not express the leaf / lacks its symbol */
    Q7D_CELL_UNAVAILABLE,  /* the oracle is absent (e.g. no numpy) */
    Q7D_CELL_CRASHED,      /* evaluated, and the library crashed or hung on some cases */
    Q7D_CELL_STOPPED,      /* the library reached max_crashes in this leaf: fed no further case of it */
    Q7D_CELL_ABSENT,       /* the library does not export the leaf's symbol */
    Q7D_CELL_NOT_CALLED,   /* --abi: the probe settled no argument list for it, so it is not called */
    Q7D_CELL_STATE_COUNT
} q7d_cell_state;

/* What a crash stops: only its own case. The child is restarted and the
 * unit goes on with the next case; the crashing case counts in `crashes`,
 * not in `checks`. Every count is then a fact about single cases, the same
 * however threads and shards cut the unit, so merged shards add up to the
 * unsharded run exactly. The one exception bounds the cost of a library
 * that crashes or hangs everywhere: after max_crashes crashing cases in a
 * unit it is fed no further case of that leaf, and those cells say
 * `stopped` (in every report, merged ones included). */
typedef struct q7d_cell {
    uint64_t checks, mismatches, ood;  /* ood: cases outside the oracle's domain (n/a) */
    uint64_t crashes;                  /* cases on which the library crashed or hung */
    uint64_t above_lane;               /* mismatches on inputs with bits above an integer lane
                                        * (q7d_above_lane): all of them, and the ABI's full
                                        * register compare was missed */
    q7d_cell_state state;
} q7d_cell;

/* A unit's cases run are always the first `cases` of its slice: the
 * position it goes on from (a resume) is the slice's start + cases. */
typedef struct q7d_unit {
    uint64_t cases;                    /* cases run (this shard's slice) */
    double seconds;                    /* wall time spent on them */
    q7d_cell cell[Q7D_MAX_COLS];
} q7d_unit;

typedef enum q7d_crash_kind {
    Q7D_CRASH_SIGNAL, Q7D_CRASH_HANG, Q7D_CRASH_EXIT, Q7D_CRASH_PROTOCOL, Q7D_CRASH_KIND_COUNT
} q7d_crash_kind;

#define Q7D_OUTPUT_MAX 400

typedef struct q7d_crash {
    unsigned col, leaf;
    q7d_corpus corpus;
    uint64_t index;
    uint32_t in[Q7_MAX_WORDS];
    q7d_crash_kind kind;
    int code;                          /* signal number or exit status */
    double timeout;
    bool has_fault;                    /* a SIGSEGV or SIGBUS whose address is known: */
    uint64_t fault_addr;               /*   that address */
    uint32_t xstate_size;              /* the xstate the library was passed (0: NULL) */
    char output[Q7D_OUTPUT_MAX];       /* the last lines the library printed ("" if none) */
} q7d_crash;

/* How one oracle answered one case of a mismatch record. */
typedef enum q7d_out_state {
    Q7D_OUT_VALUE, Q7D_OUT_NA, Q7D_OUT_OOD, Q7D_OUT_NOT_RUN, Q7D_OUT_STATE_COUNT
} q7d_out_state;

typedef struct q7d_mismatch {
    unsigned leaf;
    q7d_corpus corpus;
    uint64_t index;
    uint32_t in[Q7_MAX_WORDS];
    q7d_out_state state[Q7D_MAX_COLS];
    bool differs[Q7D_MAX_COLS];
    uint32_t out[Q7D_MAX_COLS][Q7_MAX_WORDS];
} q7d_mismatch;

/* What every mismatch of a column in a leaf has in common, over all of
 * them (not only the records kept): the output bits where its answer and
 * the reference's differed in some mismatch, the bits it set in some and
 * in every one, and the input classes (q7u_input_classes) every one had.
 * Sums and unions over cases, so shards merge into the unsharded run's. */
typedef struct q7d_common {
    uint64_t n;                        /* mismatches with a value answer summed up (0: none yet) */
    uint32_t differ[Q7_MAX_WORDS];
    uint32_t ever[Q7_MAX_WORDS];
    uint32_t always[Q7_MAX_WORDS];
    uint32_t classes;                  /* the classes of every mismatch's inputs (an AND) */
} q7d_common;
/* Adds one mismatch (out: the column's answer, ref: the reference's). */
void q7d_common_add(q7d_common *c, const q7_leaf *leaf, const uint32_t *in, const uint32_t *out, const uint32_t *ref);
/* Adds b into a; false (a unchanged) when the counts pass 2^64-1. */
bool q7d_common_merge(q7d_common *a, const q7d_common *b);

/* A mismatch map, the picture of a leaf's inputs (q7d_map_layout): the
 * cases some oracle disagreed on, binned, bin[(panel * SIDE + row) * SIDE
 * + column]; a case with a bit above the operand it is binned by is
 * counted off the map. By the leaf:
 *   PLANE    two operands of at most 32 bits (the integer, fp and FS
 *            compares, extbi, the BR forms): row by A, column by B, each by
 *            its axis (q7d_axis);
 *   TAIL     a predicated compare: the (A, B) plane, panel 0 the killed
 *            cases (C bit 0 clear: the gate), panel 1 the live ones;
 *   CLASSES  classify: row the input's class (q7d_fp_class), column its
 *            place within the class (Q7D_MAP_SIDE parts of its range);
 *   STRIP    one operand of at most 8 bits (bitkill, notb1): row 0, column
 *            its value. */
#define Q7D_MAP_SIDE 256
#define Q7D_MAP_PANELS 2
#define Q7D_MAP_BINS (Q7D_MAP_PANELS * Q7D_MAP_SIDE * Q7D_MAP_SIDE)
typedef struct q7d_map {
    uint64_t bin[Q7D_MAP_BINS];
    uint64_t off_map;
} q7d_map;

typedef enum q7d_map_kind { Q7D_MAP_NONE, Q7D_MAP_PLANE, Q7D_MAP_TAIL, Q7D_MAP_CLASSES, Q7D_MAP_STRIP } q7d_map_kind;

/* How an operand's values fall into the bins of an axis:
 *   EXACT      a value of at most 8 bits: its own bin (bins = 2^bits)
 *   HIGH_BYTE  a 16- or 32-bit integer: its top byte (256 bins)
 *   FP16       its top byte: sign, exponent and two mantissa bits
 *   FP32       sign and exponent: 0 zero and denormals, 1..126 the normal
 *              exponents two by two, 127 inf and NaN; the negative ones
 *              128 on */
typedef enum q7d_axis_kind { Q7D_AXIS_EXACT, Q7D_AXIS_HIGH_BYTE, Q7D_AXIS_FP16, Q7D_AXIS_FP32 } q7d_axis_kind;
typedef struct q7d_axis {
    q7d_axis_kind kind;
    unsigned bits;      /* of the operand */
    unsigned bins;
    unsigned word;      /* the operand's word in in[] */
    char name[16];      /* the operand's, "A", "B" */
} q7d_axis;

/* The kind of picture of a leaf and its axes (rows, then columns; a
 * STRIP's and CLASSES' rows are not an operand's); panels it has. */
typedef struct q7d_map_layout {
    q7d_map_kind kind;
    q7d_axis axis[2];
    unsigned rows, cols, panels;
} q7d_map_layout;
q7d_map_layout q7d_map_layout_of(const q7_leaf *leaf);
bool q7d_map_applies(const q7_leaf *leaf);
/* Adds n cases of input in (the leaf's input words) to the leaf's map. */
void q7d_map_add(q7d_map *m, const q7_leaf *leaf, const uint32_t *in, uint64_t n);

/* The classes of classify's picture, by an fp16 / fp32 input's bits. */
#define Q7D_FP_CLASSES(X) X(POS_ZERO, "+0") X(NEG_ZERO, "-0") X(POS_DENORMAL, "+denormal") \
    X(NEG_DENORMAL, "-denormal") X(POS_NORMAL, "+normal") X(NEG_NORMAL, "-normal") X(POS_INF, "+inf")  \
    X(NEG_INF, "-inf") X(QNAN, "qNaN") X(SNAN, "sNaN")
typedef enum q7d_fp_class {
#define Q7D_FP_CLASS_ID(id, name) Q7D_FPC_##id,
    Q7D_FP_CLASSES(Q7D_FP_CLASS_ID)
#undef Q7D_FP_CLASS_ID
    Q7D_FPC_COUNT
} q7d_fp_class;
/* An fp input's class (bits 16 or 32) and, when given, its place within
 * the class in [0, Q7D_MAP_SIDE). */
q7d_fp_class q7d_fp_class_of(uint32_t x, unsigned bits, unsigned *place);
const char *q7d_fp_class_name(q7d_fp_class c);
/* Whether an integer compare's input has bits above its lane (the
 * operands an int compare of width < 32 reads whole, DECISIONS.md §2). */
bool q7d_above_lane(const q7_leaf *leaf, const uint32_t *in);

/* Where, when and with what a run ran (docs/report-format.md). */
typedef struct q7d_provenance {
    char started[32];                  /* UTC, ISO 8601 ("" unknown: a report of format 2) */
    char host[256];                    /* host name */
    char cpu[256];                     /* CPU model */
    char cwd[FILE_ID_PATH_MAX];        /* the working directory relative paths are of */
    char host_oracle[64];              /* the host oracle's path: "avx512bw+f16c", "portable" */
    char compiler[128];                /* what built q7pred */
    file_identity tool;                /* the q7pred executable */
    unsigned npreloads;
    file_identity preload[Q7D_MAX_LIBS];   /* the --preload files */
    char resumed_from[FILE_ID_PATH_MAX];   /* --resume FILE ("" none) */
    char resumed_started[32];              /* when the run that wrote it started */
} q7d_provenance;

/* The provenance of a run starting here and now (its preloads and
 * resume aside); false with err set when q7pred's own file cannot be
 * read. */
bool q7d_provenance_here(q7d_provenance *p, char *err, size_t errsize);

/* Each leaf's proof status, for the HTML report (from a prove or
 * IR proof's JSON; not part of the JSON report). */
typedef struct q7d_proofs {
    char source[FILE_ID_PATH_MAX];     /* the file */
    char library[FILE_ID_PATH_MAX];    /* the library it proves (a prove report's); "" for an IR proof's */
    char sha256[SHA256_HEX_SIZE];      /* that library's SHA-256 as the file records it ("" when none) */
    bool foreign;                      /* of another library than the run verified, shown as asked
                                          (--foreign-proofs) */
    bool known[Q7_LEAF_COUNT];         /* the file has a row for the leaf */
    char status[Q7_LEAF_COUNT][32];    /* "proven-binary", "refuted", "proven-ir", ... */
    char detail[Q7_LEAF_COUNT][160];   /* the row's note, if any */
} q7d_proofs;
/* Why --abi does not call a leaf (q7d_results.not_called). */
typedef enum q7d_uncalled {
    Q7D_CALLED,             /* it is called */
    Q7D_UNCALLED_CRASHED,   /* every argument list crashed in the probe */
    Q7D_UNCALLED_UNSETTLED, /* the probe refuted the table's and found no other (or its answers differ between
                               identical calls) */
    Q7D_UNCALLED_COUNT
} q7d_uncalled;

/* The longest "as ORD in the order A, B, result, aux" (q7d_abi_called_as). */
#define Q7D_CALLED_AS_MAX 160

typedef struct q7d_results {
    q7d_corpus_params params;
    bool selected[Q7_LEAF_COUNT];
    char called_as[Q7_LEAF_COUNT][Q7D_CALLED_AS_MAX];   /* --abi: how a leaf is called otherwise than its
                                                           row ("as BIN"); "" as the row, or not called */
    bool allow_absent;                 /* --allow-absent: a leaf a library does not export is no gap */
    unsigned char not_called[Q7_LEAF_COUNT];   /* a q7d_uncalled: --abi's leaves that are not called */
    bool compare_aux;
    double timeout;
    uint64_t max_crashes;              /* crashing cases of a library per unit before it stops (0: no limit) */
    unsigned max_report;               /* mismatch and crash records kept per leaf */
    unsigned shard_k, shard_n;         /* 1-based K of N */
    unsigned merged;                   /* shards combined by q7pred merge (0: a plain run) */
    unsigned grid_version;
    unsigned threads;                  /* worker threads that ran */
    unsigned threads_requested;        /* --threads (0: the default, every usable core) */
    int interrupted;                   /* the signal that stopped the run early, 0 if none */
    bool running;                      /* a checkpoint written while the run goes on */
    unsigned format_version;           /* of the report it was read from (0: a run) */
    unsigned ncols;
    q7d_column col[Q7D_MAX_COLS];
    unsigned reference;                /* the column every other is compared with: 0, the model (sem), or
                                          the library of --reference lib:PATH */
    q7d_unit unit[Q7_LEAF_COUNT][Q7D_CORPUS_COUNT];
    size_t ncrashes, crash_cap;
    q7d_crash *crashes;                /* the first max_report per leaf, by (corpus, index, column) */
    size_t nmismatches, mismatch_cap;
    q7d_mismatch *mismatches;          /* sorted by (leaf, corpus, index) */
    q7d_map *map[Q7_LEAF_COUNT];       /* NULL: no mismatch of the leaf on a map (q7d_map_layout_of) */
    q7d_common common[Q7_LEAF_COUNT][Q7D_MAX_COLS];   /* each column's mismatches in each leaf */
    q7d_provenance prov;
    const q7d_proofs *proofs;          /* NULL, or the proof status the HTML report shows */
    double wall_seconds;               /* a plain run's, start to end (0 for a merged one) */
    double shard_seconds;              /* a merged one's: its shards' wall times summed, not a wall time */
    char version[32];                  /* Q7PRED_VERSION of the run (shards must agree) */
    char command[4096];                /* the command line, for the record */
} q7d_results;

#define Q7D_DEFAULT_TIMEOUT 10   /* seconds: --timeout of verify and bench */
#define Q7D_DEFAULT_NUMPY_TIMEOUT 60   /* seconds: verify's --numpy-timeout */
#define Q7D_DEFAULT_MAX_CRASHES 10

void q7d_results_init(q7d_results *r);
void q7d_results_free(q7d_results *r);
/* The leaf's map, made empty if it has none; NULL when out of memory. */
q7d_map *q7d_results_map(q7d_results *r, unsigned leaf);
/* Adds a mismatch record, keeping the first max_report per leaf in
 * (corpus, index) order. False only when out of memory. */
bool q7d_results_add_mismatch(q7d_results *r, const q7d_mismatch *m);
/* Adds a crash record, keeping the first max_report per leaf in (corpus,
 * index, column) order (the cells count every crash). False only when out
 * of memory. */
bool q7d_results_add_crash(q7d_results *r, const q7d_crash *c);
/* The records' order (qsort comparators): (leaf, corpus, index), then a
 * crash's column. */
int q7d_mismatch_cmp(const void *a, const void *b);
int q7d_crash_cmp(const void *a, const void *b);
/* *sum += x; false (and *sum unchanged) past 2^64-1. */
bool q7d_count_add(uint64_t *sum, uint64_t x);
/* Totals over the whole run; crashes are crashing cases. A run's counts
 * never reach 2^64; results read from reports are checked not to
 * (q7r_report_read, q7r_merge). */
typedef struct q7d_totals { uint64_t cases, checks, mismatches, ood, crashes, above_lane; } q7d_totals;
q7d_totals q7d_results_totals(const q7d_results *r);
/* The totals, or false when one of them passes 2^64-1. */
bool q7d_results_totals_checked(const q7d_results *r, q7d_totals *t);
/* What a run was asked to check and did not (docs/report-format.md,
 * "Gaps"), over the selected leaves: a leaf some library does not export
 * (absent, per library column); one --abi does not call; one a library
 * was stopped in after --max-crashes; an oracle column that was lost
 * (unavailable from its start, or stopped mid-run: the oracle was asked
 * for or defaulted, since one left out of --oracles has no column). */
typedef struct q7d_gaps {
    bool absent[Q7D_MAX_COLS][Q7_LEAF_COUNT];
    unsigned nabsent[Q7D_MAX_COLS];
    unsigned absent_leaves;            /* leaves absent from some library */
    bool not_called[Q7_LEAF_COUNT];
    unsigned nnot_called;
    bool stopped[Q7_LEAF_COUNT];
    unsigned nstopped;
    bool lost[Q7D_MAX_COLS];
    unsigned nlost;
    unsigned selected;                 /* leaves selected */
    bool incomplete;                   /* an absent leaf (unless allow_absent), one not called, a lost oracle */
} q7d_gaps;
void q7d_results_gaps(const q7d_results *r, q7d_gaps *g);
/* "crashed in probe", "no argument list found by the probe". */
const char *q7d_uncalled_reason(q7d_uncalled u);

/* The verdict: PASS needs at least one check by an oracle besides sem
 * ("no leaf was checked" is a FAIL), no mismatch, no crash, a run that
 * was not interrupted, and no gap that makes it incomplete (q7d_gaps). */
bool q7d_results_pass(const q7d_results *r);

/* ---------------------------------------------------------------- engine */

/* A writer of one report of the results (report/report.h has them). */
typedef void q7d_report_writer(FILE *f, const q7d_results *r);

typedef struct q7d_options {
    /* NAMED kinds: use[k], a column of kind k; named[k], asked for by
     * name (so one that cannot start is an error, not n/a) */
    bool use[Q7D_ORACLE_KIND_COUNT];
    bool named[Q7D_ORACLE_KIND_COUNT];
    const char *host_path;             /* NULL/"auto" or "portable" */
    unsigned nlibs;
    const char *libs[Q7D_MAX_LIBS];
    bool reference;                    /* libs[0] is the reference (--reference lib:PATH), not the model */
    unsigned npreloads;
    const char *preloads[Q7D_MAX_LIBS];
    const char *python;                /* --python, or NULL: util/locate.h q7u_python chooses */
    const char *numpy_program;         /* NULL: found as q7d_numpy_program_path says */
    double numpy_timeout;              /* the numpy oracle's start, answers and quit (0: the default) */
    unsigned threads;                  /* 0: every usable core; more are capped at them */
    bool progress;                     /* progress bar on stderr */
    const char *checkpoint;            /* NULL, or where the run's progress is written (q7d_checkpoint_write) */
    q7d_report_writer *checkpoint_report;   /* what writes it: the JSON report, from the layer above */
    double checkpoint_seconds;         /* at most this often (0: Q7D_CHECKPOINT_SECONDS) */
    const q7d_results *resume;         /* NULL, or a checkpoint whose progress is taken as run */
    const char *resume_path;           /* its file, for the record */
    /* --abi: how the lib:PATH columns call each leaf; NULL: every leaf
     * its table shape in its order */
    const struct q7d_abi *abi;
    const char *abi_path;
    uint32_t xstate_size;              /* --xstate-size: the libraries' xstate (0: NULL) */
    double sample_seconds;             /* > 0: run one round of each unit, at most this long (--dry-run's
                                          calibration: a unit's rate) */
} q7d_options;

/* What --abi PROBE.json says of each leaf: the shape it is called with
 * (-1: not called, why in uncalled) and the order of that shape's
 * arguments (q7_shape_call_ordered; the shape's own order when the probe
 * found it so). */
typedef struct q7d_abi {
    signed char shape[Q7_LEAF_COUNT];
    uint8_t order[Q7_LEAF_COUNT][Q7_MAX_ARGS];
    unsigned char uncalled[Q7_LEAF_COUNT];   /* a q7d_uncalled */
} q7d_abi;

/* ------------------------------------------------------------ checkpoints */

/* A checkpoint is the JSON report (written by `write`) of what has run so
 * far. A unit runs in rounds (Q7D_ROUND_SECONDS); after each, its counts
 * and records are those of the first `cases` cases of its slice, so a
 * resumed run goes on at the slice's start + cases, in finished and
 * unfinished units alike. PATH is the file it names, a symbolic link
 * followed (as a report's path is): written to PATH.tmp beside that file
 * (made anew: a link or FIFO found there is replaced, never written
 * through), flushed to disk and renamed over it (its directory synced), so
 * PATH is always a whole checkpoint.
 * False with err set if it cannot be written. */
bool q7d_checkpoint_write(const char *path, const q7d_results *r, q7d_report_writer *write, char *err,
                          size_t errsize);
/* Claims PATH for this run's checkpoints, before the run: PATH.tmp can be
 * created (it is, and removed; PATH itself, if there, is a regular file),
 * and no other run holds PATH.lock (an exclusive flock, held until
 * q7d_checkpoint_release; two runs writing one checkpoint would take each
 * other's PATH.tmp). The lock's descriptor into *lock; false with err
 * naming the file and the reason. */
bool q7d_checkpoint_claim(const char *path, int *lock, char *err, size_t errsize);
/* Removes PATH.lock and lets the claim go (lock < 0: nothing to do). */
void q7d_checkpoint_release(const char *path, int lock);
/* Seconds between two checkpoints of a run, by default (and one when it
 * ends, interrupted or not). */
#define Q7D_CHECKPOINT_SECONDS 5
/* The longest round of a unit: its workers stop taking blocks after it,
 * and what they ran is the unit's prefix (a shorter checkpoint interval
 * makes rounds that short). An interrupted round is not kept. */
#define Q7D_ROUND_SECONDS 1.0
/* Whether resuming r from checkpoint `from` is sound: the same parameters
 * (q7d_same_params) and shard, a plain run, the same library files
 * (SHA-256) and q7pred executable, no unit past its slice; else false,
 * err saying why. */
bool q7d_resume_fits(const q7d_results *r, const q7d_results *from, char *err, size_t errsize);
/* Takes everything `from` ran into r: every unit's counts, cell states and
 * time, the records and the maps. False only when out of memory. */
bool q7d_resume_take(q7d_results *r, const q7d_results *from);

/* Runs the differential into r (whose params, selection, shard, compare_aux,
 * timeout and max_report the caller has set). Returns 0 on success, 2 with
 * a one-line message in err on a usage-level failure (a library that cannot
 * be loaded). SIGINT, SIGTERM and SIGHUP during the run end every child and
 * stop it early: it returns 0 with what ran and r->interrupted set. */
int q7d_run(q7d_results *r, const q7d_options *o, char *err, size_t errsize);

/* ---------------------------------------------------------------- runs */

/* Whether two runs checked the same thing (version, corpora and their
 * parameters, leaves, --compare-aux, --max-crashes, oracles); if not, false
 * with what differs ("seed", "oracles", ...) in what. */
bool q7d_same_params(const q7d_results *a, const q7d_results *b, char *what, size_t size);

/* ---------------------------------------------------------------- shards */

/* Slice [*lo, *hi) of n cases for shard k (1-based) of count. */
void q7d_shard_range(uint64_t n, unsigned k, unsigned count, uint64_t *lo, uint64_t *hi);

#endif
