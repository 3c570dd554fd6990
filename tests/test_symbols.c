/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ABI surface of libq7pred.so (DECISIONS.md §1): every leaf of its
 * table, as tests/support/spec_leaves.h writes it out, resolves with dlsym, inside
 * the shared library itself; every name the shipped library does not
 * export is absent here too; the dynamic symbol table defines those leaves
 * and the q7_* / q7v_* clean API, nothing else; and each leaf's provenance
 * is DECISIONS.md's. The written-out list is checked here against the
 * table's rules (its groups' products of operations and forms, below) and
 * its count against the table's title; the absent names are generated from
 * DECISIONS.md's rules too, not taken from the CLI's list.
 */
#include <ctype.h>
#include <dirent.h>
#include <string.h>

#include "check.h"
#include "q7pred.h"
#include "q7so.h"
#include "spec_leaves.h"

/* The suffixes by DECISIONS.md §1's rules (each group a product of its
 * operations and forms), a second reading of the table beside
 * tests/support/spec_leaves.h's rows. */
static const char *const int_ops[] = { "lt", "ltu", "le", "leu", "eq", "neq" };
static const char *const int_widths[] = { "1_8_8", "2_16_16", "4_32_32" };
static const char *const ord_ops[] = { "oeq", "olt", "ole" };
static const char *const un_ops[] = { "un", "ueq", "ult", "ule" };
static const char *const fp_forms[] = { "1_1_16f_16f", "1_2_16f_16f", "1_4_32f_32f" };
static const char *const fixed[] = {
    "clsfy_16f_16f", "clsfy_32f_32f",
    "andb_64_64_64", "orb_64_64_64", "xorb_64_64_64", "andnotb_64_64_64", "ornotb_64_64_64",
    "notb_64_64", "notb1_1_1", "andnotb1_1_1_1", "ornotb1_1_1_1",
    "bitkillt_8_1", "bitkillt_16_2", "bitkillt_32_4",
    "bitkillf_16_1", "bitkillf_16_2", "bitkillf_32_4",
    "extbi_1_8_32", "extbi_2_16_32", "extbi_4_32_32", "injbi_8_8_1_32",
    "movfsv_64_64_64_64_64_64_64_64_512", "movvfs_512_64_64_64_64_64_64_64_64",
    "borfs_2n_64_64_64_64_64_64_64_64_64", "bnorfs_2n_64_64_64_64_64_64_64_64_64",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char present[128][64];
static size_t npresent;

static void add(char (*list)[64], size_t *n, const char *a, const char *b, const char *c)
{
    snprintf(list[(*n)++], 64, "%s%s%s%s%s", a, b ? "_" : "", b ? b : "", c ? "_" : "", c ? c : "");
}

static void build_present(void)
{
    for (size_t i = 0; i < N(int_ops); i++)
        for (size_t w = 0; w < N(int_widths); w++) add(present, &npresent, int_ops[i], int_widths[w], NULL);
    for (size_t f = 0; f < N(fp_forms); f++) {
        for (size_t i = 0; i < N(ord_ops); i++) add(present, &npresent, ord_ops[i], fp_forms[f], NULL);
        for (size_t i = 0; i < N(un_ops); i++) add(present, &npresent, un_ops[i], fp_forms[f], NULL);
    }
    for (size_t i = 0; i < N(ord_ops) + N(un_ops); i++) {
        const char *op = i < N(ord_ops) ? ord_ops[i] : un_ops[i - N(ord_ops)];
        add(present, &npresent, op, "1_2_16f_16f", "2f_t");
        add(present, &npresent, op, "1_4_32f_32f", "4f_t");
    }
    for (size_t i = 0; i < N(fixed); i++) add(present, &npresent, fixed[i], NULL, NULL);
    for (int n = 0; n < 8; n++) {
        char name[32];
        snprintf(name, sizeof name, "fs%dltu_64_8_8", n);
        add(present, &npresent, name, NULL, NULL);
    }
}

/* DECISIONS.md §1: any *_1_4_16f_16f (bare and as a tail), any _1_1
 * predicated tail (fp16 and fp32, whatever its predicate field), bitkillf_8_1,
 * bitkillt_16_1. */
static char absent[128][64];
static size_t nabsent;

static void build_absent(void)
{
    static const char *const tails[] = { "1f_t", "2f_t", "4f_t" };
    for (size_t i = 0; i < N(ord_ops) + N(un_ops); i++) {
        const char *op = i < N(ord_ops) ? ord_ops[i] : un_ops[i - N(ord_ops)];
        add(absent, &nabsent, op, "1_4_16f_16f", NULL);
        for (size_t t = 0; t < N(tails); t++) {
            add(absent, &nabsent, op, "1_4_16f_16f", tails[t]);
            add(absent, &nabsent, op, "1_1_16f_16f", tails[t]);
            add(absent, &nabsent, op, "1_1_32f_32f", tails[t]);
        }
    }
    add(absent, &nabsent, "bitkillf_8_1", NULL, NULL);
    add(absent, &nabsent, "bitkillt_16_1", NULL, NULL);
}

/* The written-out list: the count in DECISIONS.md §1's title, each name
 * once, and the same names as its rules give. */
static void check_spec_list(void)
{
    CHECK_EQ(SPEC_LEAF_COUNT, 86);
    CHECK_EQ(npresent, SPEC_LEAF_COUNT);
    for (size_t i = 0; i < SPEC_LEAF_COUNT; i++) {
        size_t found = 0;
        for (size_t j = 0; j < npresent; j++) found += strcmp(present[j], spec_leaves[i].suffix) == 0;
        CHECK_EQF(found, 1, "%s of tests/support/spec_leaves.h by DECISIONS.md's rules", spec_leaves[i].suffix);
        for (size_t j = 0; j < i; j++)
            CHECK_EQF(strcmp(spec_leaves[j].suffix, spec_leaves[i].suffix) != 0, 1, "%s listed twice",
                      spec_leaves[i].suffix);
    }
}

static void check_present(void *so)
{
    CHECK_EQ(q7_leaf_count(), SPEC_LEAF_COUNT);
    for (size_t i = 0; i < SPEC_LEAF_COUNT; i++) {
        const char *name = spec_leaves[i].suffix;
        char sym[96];
        snprintf(sym, sizeof sym, "module__xdref_%.63s", name);
        void *p = dlsym(so, sym);
        CHECK_EQF(p != NULL, 1, "dlsym(%s)", sym);
        Dl_info info;
        /* defined by libq7pred.so itself, not found elsewhere */
        if (p && dladdr(p, &info) && info.dli_fname) {
            const char *base = strrchr(info.dli_fname, '/');
            CHECK_EQF(strcmp(base ? base + 1 : info.dli_fname, "libq7pred.so"), 0,
                      "%s defined in %s", sym, info.dli_fname);
        }
        /* and the registry knows it under the same name */
        const q7_leaf *l = q7_leaf_find(name);
        CHECK_EQF(l != NULL, 1, "registry has %s", name);
        if (l) CHECK_EQF(strcmp(l->symbol, sym), 0, "registry symbol of %s", name);
    }
}

static void check_absent(void *so)
{
    for (size_t i = 0; i < nabsent; i++) {
        char sym[96];
        snprintf(sym, sizeof sym, "module__xdref_%.63s", absent[i]);
        CHECK_EQF(dlsym(so, sym) == NULL, 1, "%s must not exist", sym);
        CHECK_EQF(q7_leaf_find(absent[i]) == NULL, 1, "registry must not have %s", absent[i]);
    }
    printf("%d present, %zu absent names checked\n", (int)SPEC_LEAF_COUNT, nabsent);
}

/* DECISIONS.md §1's provenance column, leaf by leaf: what the page shows
 * is observed, what DECISIONS.md infers says so. Ordered fp: _1_1 observed,
 * _1_2/_1_4 inferred; unordered: un_1_1 (the body the page shows) observed,
 * the other widths and ueq/ult/ule inferred; every predicated tail (its ABI
 * is inferred from the §6.3 head); notb's arity; the 1-bit BR forms;
 * movfsv's argument order and bit map, and movvfs; bnorfs (by symmetry). */
static bool decisions_inferred(const char *s)
{
    static const char *const inferred[] = {
        "notb_64_64", "notb1_1_1", "andnotb1_1_1_1", "ornotb1_1_1_1",
        "movfsv_64_64_64_64_64_64_64_64_512", "movvfs_512_64_64_64_64_64_64_64_64",
        "bnorfs_2n_64_64_64_64_64_64_64_64_64",
    };
    size_t n = strlen(s);
    if (n > 2 && strcmp(s + n - 2, "_t") == 0) return true;
    for (size_t i = 0; i < N(ord_ops); i++)
        if (strncmp(s, ord_ops[i], strlen(ord_ops[i])) == 0 && s[strlen(ord_ops[i])] == '_')
            return strcmp(s + strlen(ord_ops[i]), "_1_1_16f_16f") != 0;
    for (size_t i = 0; i < N(un_ops); i++)
        if (strncmp(s, un_ops[i], strlen(un_ops[i])) == 0 && s[strlen(un_ops[i])] == '_')
            return strcmp(s, "un_1_1_16f_16f") != 0;
    for (size_t i = 0; i < N(inferred); i++)
        if (strcmp(s, inferred[i]) == 0) return true;
    return false;
}

/* The list's provenance column, the rules above, and the library: all one. */
static void check_provenance(void)
{
    for (size_t i = 0; i < SPEC_LEAF_COUNT; i++) {
        const char *name = spec_leaves[i].suffix;
        bool want = spec_leaves[i].inferred;
        CHECK_EQF(decisions_inferred(name), want, "provenance of %s: the rules and tests/support/spec_leaves.h", name);
        const q7_leaf *l = q7_leaf_find(name);
        if (!l) continue;
        CHECK_EQF(strcmp(q7_provenance_name(l->provenance), want ? "inferred" : "observed"), 0,
                  "provenance of %s is %s, DECISIONS.md §1 says %s", name,
                  q7_provenance_name(l->provenance), want ? "inferred" : "observed");
    }
}

static bool file_declares(const char *path, const char *pattern)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, pattern);
        found = p && (p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
    }
    fclose(f);
    return found;
}

/* Is `name` declared as a function in a public header, include/ *.h, or
 * as q7_<row> by a row OP(<row>, ...) of the operation table
 * q7pred_ops.def, whose prototypes <q7pred.h> generates? */
static bool declared_in_headers(const char *name)
{
    const char *src = getenv("SRCDIR");
    char dir[4096], path[4400], pattern[300];
    snprintf(dir, sizeof dir, "%s/include", src && *src ? src : ".");
    snprintf(pattern, sizeof pattern, "%s(", name);
    DIR *d = opendir(dir);
    if (!d) return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".h") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        found = file_declares(path, pattern);
    }
    closedir(d);
    if (!found && strncmp(name, "q7_", 3) == 0) {
        snprintf(path, sizeof path, "%s/q7pred_ops.def", dir);
        snprintf(pattern, sizeof pattern, "OP(%s,", name + 3);
        found = file_declares(path, pattern);
    }
    return found;
}

/* nm -D --defined-only: the list's leaves and the clean API (q7_*, and
 * the vector level's q7v_*), nothing else. */
static void check_dynamic_table(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s'", q7so_path());
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    if (!p) return;
    char line[512];
    size_t leaves = 0, api = 0, other = 0;
    while (fgets(line, sizeof line, p)) {
        char addr[64], type[8], name[256];
        if (sscanf(line, "%63s %7s %255s", addr, type, name) != 3) continue;
        if (strncmp(name, "module__xdref_", 14) == 0) {
            bool known = false;
            for (size_t i = 0; i < SPEC_LEAF_COUNT && !known; i++) known = strcmp(name + 14, spec_leaves[i].suffix) == 0;
            CHECK_EQF(known, 1, "exported leaf %s is one of DECISIONS.md's", name);
            leaves++;
        } else if (strncmp(name, "q7_", 3) == 0) {
            CHECK_EQF(declared_in_headers(name), 1, "exported %s is declared in include/", name);
            api++;
        } else if (strncmp(name, "q7v_", 4) == 0) {
            /* the vector level's API (<q7pred_vec.h>; many of its
             * declarations are generated from q7pred_vecops.def) */
            api++;
        } else {
            fprintf(stderr, "unexpected exported symbol: %s", line);
            other++;
        }
    }
    int rc = pclose(p);
    CHECK_EQF(rc, 0, "%s exits 0", cmd);
    CHECK_EQ(leaves, SPEC_LEAF_COUNT);
    CHECK(api > 0);
    CHECK_EQ(other, 0);
    printf("nm: %zu leaves, %zu API functions, %zu other\n", leaves, api, other);
}

int main(void)
{
    build_present();
    build_absent();
    check_spec_list();
    void *so = q7so_open();
    check_present(so);
    check_absent(so);
    check_provenance();
    check_dynamic_table();
    dlclose(so);
    return check_status("symbols");
}
