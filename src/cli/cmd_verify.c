/* q7pred verify / q7pred merge: the command line of the differential. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "host/host.h"
#include "verify/verify.h"

static void verify_help(FILE *f)
{
    fprintf(f,
        "usage: q7pred verify [OPTION...]\n"
        "\n"
        "The differential: the same inputs through every oracle, each output\n"
        "compared with the reference (sem, the model). Prints the agreement table\n"
        "(a row per family x corpus, a column per oracle, cells `checks /\n"
        "mismatches`), crashes, the first mismatches with a `q7pred call` line\n"
        "each, and a verdict. Exit 0 when all agree, 1 on any mismatch or crash,\n"
        "2 on a usage error.\n"
        "\n"
        "Corpora (default grid,fuzz,exhaustive with --exhaustive-max 65536):\n"
        "  --corpus LIST       comma list of grid, fuzz, exhaustive, testfloat:FILE or\n"
        "                      testfloat:FUNCTION:FILE (testfloat_gen output; FUNCTION\n"
        "                      f16_eq/lt/le, f32_eq/lt/le, _signaling/_quiet variants)\n"
        "  --seed N            fuzz seed (default 20260617, the spec's)\n"
        "  --fuzz-count N      fuzz cases per leaf, every leaf\n"
        "  --fuzz-count CAT=N  fp16-compare, fp32-compare, fp32-classify, int16-compare:\n"
        "                      totals over the category (default 140000, 56000, 30000,\n"
        "                      90000, spec §9.2); other: per leaf (default 2000)\n"
        "  --exhaustive-max N  only spaces of at most N cases (default 2^32; 65536\n"
        "                      when --corpus is not given)\n"
        "\n"
        "Oracles (default sem,host,numpy):\n"
        "  --oracles LIST      comma list of sem, host, numpy, lib:PATH (sem is always\n"
        "                      the reference)\n"
        "  --lib PATH          add a library with the module__xdref_* ABI (repeatable);\n"
        "                      it runs in a child process, crashes and hangs are reported\n"
        "  --preload PATH      load PATH first, RTLD_GLOBAL (repeatable)\n"
        "  --timeout SECONDS   a library batch taking longer is a hang (default 10)\n"
        "  --host-path P       auto, portable, avx2 or avx512 (also Q7PRED_HOST=P)\n"
        "  --python PATH       interpreter of the numpy oracle (default $PYTHON, else\n"
        "                      /usr/bin/python3)\n"
        "  --numpy-oracle PATH the numpy oracle program (default: found beside the tool)\n"
        "  --compare-aux       compare the ordered leaves' reserved aux word too\n"
        "\n"
        "Selection and scale:\n"
        "  --family F          only these families (repeatable or comma list)\n"
        "  --leaf L            only these leaves (repeatable or comma list)\n"
        "  --threads N         worker threads (default: all cores)\n"
        "  --shard K/N         run slice K (1..N) of every corpus; combine the JSON\n"
        "                      reports with q7pred merge\n"
        "\n"
        "Reports:\n"
        "  --json FILE         JSON report (docs/report-format.md); '-' (for any of\n"
        "                      the three) writes it to stdout and the text to stderr\n"
        "  --markdown FILE     markdown report\n"
        "  --junit FILE        JUnit XML, one test case per leaf and corpus\n"
        "  --max-report N      mismatch records kept per leaf (default 5)\n"
        "  --by-leaf           a table row per leaf instead of per family\n"
        "  --quiet             print only the verdict line\n"
        "  --progress, --no-progress   progress bar on stderr (default: if a terminal)\n"
        "\n"
        "examples:\n"
        "  q7pred verify --lib build/libq7pred.so\n"
        "  q7pred verify --lib /opt/fiss/libfiss-base.so --family fp-compare --corpus grid\n"
        "  q7pred verify --corpus exhaustive --leaf clsfy_32f_32f --oracles sem,host\n"
        "  q7pred verify --shard 3/8 --json shard3.json\n");
}

static void merge_help(FILE *f)
{
    fprintf(f,
        "usage: q7pred merge [--json FILE] [--markdown FILE] [--junit FILE] [--by-leaf]\n"
        "                    [--quiet] REPORT.json...\n"
        "\n"
        "Combines the JSON reports of `q7pred verify --shard K/N` runs into the\n"
        "same agreement table as one unsharded run. Refuses (exit 2) a set with a\n"
        "missing or duplicate shard, or shards run with different parameters.\n"
        "Exit 0 when all agree, 1 on any mismatch or crash.\n");
}

typedef struct outputs {
    const char *json, *markdown, *junit;
    bool by_leaf, quiet;
} outputs;

/* Opens the report files up front, so a bad path fails before the run. */
static int open_output(const char *path, FILE **f)
{
    *f = NULL;
    if (!path) return CLI_OK;
    if (strcmp(path, "-") == 0) {
        *f = stdout;
        return CLI_OK;
    }
    *f = fopen(path, "w");
    if (!*f) return cli_usage_error("cannot write report '%s': %s", path, strerror(errno));
    return CLI_OK;
}

/* Finishes one report file; a write error names the file. */
static int close_output(FILE *f, const char *path)
{
    if (!f) return CLI_OK;
    bool ok = !ferror(f);
    ok = (f == stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
    return ok ? CLI_OK : cli_usage_error("error writing report '%s'", path);
}

static int write_reports(const q7d_results *r, const outputs *o)
{
    FILE *fj, *fm, *fu;
    int rc = open_output(o->json, &fj);
    if (rc == CLI_OK) rc = open_output(o->markdown, &fm);
    else fm = NULL;
    if (rc == CLI_OK) rc = open_output(o->junit, &fu);
    else fu = NULL;
    if (rc != CLI_OK) {
        if (fj && fj != stdout) fclose(fj);
        if (fm && fm != stdout) fclose(fm);
        return rc;
    }
    bool report_on_stdout = fj == stdout || fm == stdout || fu == stdout;
    FILE *text = report_on_stdout ? stderr : stdout;   /* keep stdout parseable */
    if (o->quiet) {
        q7d_totals t = q7d_results_totals(r);
        fprintf(text, "%s: %llu checks, %llu mismatches, %llu crashes\n", q7d_results_pass(r) ? "PASS" : "FAIL",
                (unsigned long long)t.checks, (unsigned long long)t.mismatches, (unsigned long long)t.crashes);
    } else if (o->by_leaf) {
        q7d_report_text_by_leaf(text, r);
    } else {
        q7d_report_text(text, r);
    }
    if (fj) q7d_report_json(fj, r);
    if (fm) q7d_report_markdown(fm, r);
    if (fu) q7d_report_junit(fu, r);
    FILE *files[3] = { fj, fm, fu };
    const char *paths[3] = { o->json, o->markdown, o->junit };
    for (int i = 0; i < 3; i++) {
        if (rc == CLI_OK) rc = close_output(files[i], paths[i]);
        else if (files[i] && files[i] != stdout) fclose(files[i]);   /* one message is enough */
    }
    if (rc != CLI_OK) return rc;
    return q7d_results_pass(r) ? CLI_OK : CLI_FAIL;
}

/* Checks that each report path can be written, without keeping it (a
 * file the probe created is removed again: a run that stops on a usage
 * error leaves no empty report behind). */
static int probe_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return CLI_OK;
    bool existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) return cli_usage_error("cannot write report '%s': %s", path, strerror(errno));
    fclose(f);
    if (!existed) unlink(path);
    return CLI_OK;
}

/* Iterates a comma list in place. */
static char *next_item(char **cursor)
{
    char *s = *cursor;
    if (!s) return NULL;
    char *comma = strchr(s, ',');
    if (comma) {
        *comma = '\0';
        *cursor = comma + 1;
    } else {
        *cursor = NULL;
    }
    return s;
}

static int need_value(int i, int argc, char **argv)
{
    if (i + 1 >= argc) return cli_usage_error("verify: %s needs a value", argv[i]);
    return CLI_OK;
}

static int parse_count(const char *opt, const char *s, uint64_t *out)
{
    const char *why;
    if (!cli_parse_uint(s, 64, out, &why))
        return cli_usage_error("verify: %s '%s' %s", opt, s, strstr(why, "wider") ? "is larger than 2^64-1" : why);
    return CLI_OK;
}

static int select_leaf(q7d_results *r, const char *name, bool *any)
{
    const q7_leaf *leaf = q7_leaf_find(name);
    if (!leaf) {
        const q7_leaf *near[3];
        size_t n = cli_nearest_leaves(name, near, 3);
        char list[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < n; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", near[i]->suffix);
        return cli_usage_error("verify: unknown leaf '%s' (nearest: %s; q7pred list shows all)", name, list);
    }
    if (!*any) memset(r->selected, 0, sizeof r->selected);
    *any = true;
    r->selected[leaf->id] = true;
    return CLI_OK;
}

static int add_testfloat(q7d_results *r, const char *spec)
{
    if (r->params.ntf == Q7D_MAX_TF_FILES) return cli_usage_error("verify: at most %d testfloat files", Q7D_MAX_TF_FILES);
    const char *file = spec;
    char fn[32] = "";
    const char *colon = strchr(spec, ':');
    if (colon && (size_t)(colon - spec) < sizeof fn) {
        memcpy(fn, spec, (size_t)(colon - spec));
        fn[colon - spec] = '\0';
        if (q7d_tf_function_known(fn)) file = colon + 1;
        else fn[0] = '\0';
    }
    if (!*file) return cli_usage_error("verify: testfloat: needs a file (testfloat:FILE)");
    char err[1024];
    if (!q7d_tf_read(file, fn[0] ? fn : NULL, &r->params.tf[r->params.ntf], err, sizeof err))
        return cli_usage_error("verify: %s", err);
    r->params.ntf++;
    r->params.enabled[Q7D_TESTFLOAT] = true;
    return CLI_OK;
}

static int parse_corpora(q7d_results *r, char *list, bool *any)
{
    if (!*any) memset(r->params.enabled, 0, sizeof r->params.enabled);
    *any = true;
    char *cur = list, *item;
    while ((item = next_item(&cur))) {
        if (strcmp(item, "grid") == 0) r->params.enabled[Q7D_GRID] = true;
        else if (strcmp(item, "fuzz") == 0) r->params.enabled[Q7D_FUZZ] = true;
        else if (strcmp(item, "exhaustive") == 0) r->params.enabled[Q7D_EXHAUSTIVE] = true;
        else if (strncmp(item, "testfloat:", 10) == 0) {
            int rc = add_testfloat(r, item + 10);
            if (rc != CLI_OK) return rc;
        } else if (strcmp(item, "testfloat") == 0) {
            return cli_usage_error("verify: the testfloat corpus needs its file: testfloat:FILE");
        } else {
            return cli_usage_error("verify: unknown corpus '%s' (corpora: grid, fuzz, exhaustive, "
                                   "testfloat:FILE)", item);
        }
    }
    return CLI_OK;
}

static int add_lib(q7d_options *o, const char *path)
{
    if (!*path) return cli_usage_error("verify: --lib needs a library path");
    if (o->nlibs == Q7D_MAX_LIBS) return cli_usage_error("verify: at most %d libraries", Q7D_MAX_LIBS);
    for (unsigned i = 0; i < o->nlibs; i++)
        if (strcmp(o->libs[i], path) == 0) return cli_usage_error("verify: library '%s' given twice", path);
    if (access(path, R_OK) != 0)
        return cli_usage_error("verify: cannot read library '%s': %s", path, strerror(errno));
    o->libs[o->nlibs++] = path;
    return CLI_OK;
}

static int parse_oracles(q7d_options *o, char *list)
{
    o->use_host = o->use_numpy = false;
    char *cur = list, *item;
    while ((item = next_item(&cur))) {
        if (strcmp(item, "sem") == 0) continue;   /* always there: the reference */
        if (strcmp(item, "host") == 0) o->use_host = true;
        else if (strcmp(item, "numpy") == 0) o->use_numpy = true;
        else if (strncmp(item, "lib:", 4) == 0) {
            int rc = add_lib(o, item + 4);
            if (rc != CLI_OK) return rc;
        } else {
            return cli_usage_error("verify: unknown oracle '%s' (oracles: sem, host, numpy, lib:PATH)", item);
        }
    }
    return CLI_OK;
}

static int parse_fuzz_count(q7d_results *r, const char *s)
{
    const char *eq = strchr(s, '=');
    uint64_t n;
    if (!eq) {
        int rc = parse_count("--fuzz-count", s, &n);
        if (rc != CLI_OK) return rc;
        /* per leaf everywhere: a category total becomes n per leaf of it */
        for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) {
            uint64_t k = 0;
            for (size_t i = 0; i < q7_leaf_count(); i++) k += q7d_fuzz_category_of(q7_leaf_at(i)) == (q7d_fuzz_category)c;
            if (c != Q7D_FUZZ_OTHER && k && n > UINT64_MAX / k)
                return cli_usage_error("verify: --fuzz-count '%s' per leaf overflows the %s total", s,
                                       q7d_fuzz_category_name((q7d_fuzz_category)c));
            r->params.fuzz[c] = c == Q7D_FUZZ_OTHER ? n : n * k;
        }
        return CLI_OK;
    }
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) {
        const char *name = q7d_fuzz_category_name((q7d_fuzz_category)c);
        if (strlen(name) == (size_t)(eq - s) && strncmp(name, s, (size_t)(eq - s)) == 0) {
            int rc = parse_count("--fuzz-count", eq + 1, &n);
            if (rc == CLI_OK) r->params.fuzz[c] = n;
            return rc;
        }
    }
    return cli_usage_error("verify: --fuzz-count category '%.*s' unknown (fp16-compare, fp32-compare, "
                           "fp32-classify, int16-compare, other)", (int)(eq - s), s);
}

static int parse_shard(q7d_results *r, const char *s)
{
    unsigned long k, n;
    char *end;
    errno = 0;
    k = strtoul(s, &end, 10);
    bool ok = end != s && *end == '/' && s[0] != '-' && s[0] != '+';
    if (ok) {
        const char *t = end + 1;
        n = strtoul(t, &end, 10);
        ok = end != t && *end == '\0' && t[0] != '-' && t[0] != '+' && errno == 0;
        ok = ok && n >= 1 && n <= 1000000 && k >= 1 && k <= n;
    }
    if (!ok) return cli_usage_error("verify: --shard '%s' is not K/N with 1 <= K <= N (e.g. 2/8)", s);
    r->shard_k = (unsigned)k;
    r->shard_n = (unsigned)n;
    return CLI_OK;
}

static int parse_timeout(q7d_results *r, const char *s)
{
    char *end;
    errno = 0;
    double t = strtod(s, &end);
    if (end == s || *end || errno || !(t > 0) || t > 86400)
        return cli_usage_error("verify: --timeout '%s' is not a number of seconds in (0, 86400]", s);
    r->timeout = t;
    return CLI_OK;
}

/* A host path the host oracle can run here (q7_host_select is tried and
 * undone; the run selects it again). */
static int check_host_path(const char *what, const char *v)
{
    bool ok = q7_host_select(v);
    q7_host_select("auto");
    if (ok) return CLI_OK;
    static const char *const names[] = { "avx512", "avx2", "portable" };
    char here[64] = "auto";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (q7_host_select(names[i])) snprintf(here + strlen(here), sizeof here - strlen(here), ", %s", names[i]);
    q7_host_select("auto");
    return cli_usage_error("verify: %s '%s' unknown or not supported by this CPU (here: %s)", what, v, here);
}

static void record_command(q7d_results *r, int argc, char **argv)
{
    size_t used = (size_t)snprintf(r->command, sizeof r->command, "q7pred");
    for (int i = 0; i < argc && used < sizeof r->command; i++)
        used += (size_t)snprintf(r->command + used, sizeof r->command - used, " %s", argv[i]);
}

int cmd_verify(int argc, char **argv)
{
    static q7d_results r;   /* large: not on the stack */
    q7d_options o;
    outputs out = { NULL, NULL, NULL, false, false };
    memset(&o, 0, sizeof o);
    o.use_host = o.use_numpy = true;
    o.progress = isatty(2);
    q7d_results_init(&r);
    record_command(&r, argc, argv);
    bool corpus_given = false, leaves_given = false, families_given = false, exmax_given = false;
    bool family_sel[Q7_FAMILY_COUNT] = { false };
    int rc = CLI_OK;
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        const char *a = argv[i];
        bool takes = strcmp(a, "--corpus") == 0 || strcmp(a, "--oracles") == 0 || strcmp(a, "--lib") == 0
                     || strcmp(a, "--preload") == 0 || strcmp(a, "--family") == 0 || strcmp(a, "--leaf") == 0
                     || strcmp(a, "--seed") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--shard") == 0
                     || strcmp(a, "--json") == 0 || strcmp(a, "--markdown") == 0 || strcmp(a, "--junit") == 0
                     || strcmp(a, "--fuzz-count") == 0 || strcmp(a, "--exhaustive-max") == 0
                     || strcmp(a, "--max-report") == 0 || strcmp(a, "--timeout") == 0
                     || strcmp(a, "--host-path") == 0 || strcmp(a, "--python") == 0
                     || strcmp(a, "--numpy-oracle") == 0;
        if (takes && (rc = need_value(i, argc, argv)) != CLI_OK) break;
        char *v = takes ? argv[++i] : NULL;
        uint64_t n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            verify_help(stdout);
            q7d_results_free(&r);
            return CLI_OK;
        } else if (strcmp(a, "--corpus") == 0) {
            rc = parse_corpora(&r, v, &corpus_given);
        } else if (strcmp(a, "--oracles") == 0) {
            rc = parse_oracles(&o, v);
        } else if (strcmp(a, "--lib") == 0) {
            rc = add_lib(&o, v);
        } else if (strcmp(a, "--preload") == 0) {
            if (o.npreloads == Q7D_MAX_LIBS) rc = cli_usage_error("verify: at most %d --preload", Q7D_MAX_LIBS);
            else if (access(v, R_OK) != 0)
                rc = cli_usage_error("verify: cannot read --preload '%s': %s", v, strerror(errno));
            else o.preloads[o.npreloads++] = v;
        } else if (strcmp(a, "--family") == 0) {
            char *cur = v, *item;
            while (rc == CLI_OK && (item = next_item(&cur))) {
                q7_family f = q7_family_find(item);
                if (f == Q7_FAMILY_COUNT) {
                    char names[512] = "";
                    size_t used = 0;
                    for (unsigned k = 0; k < Q7_FAMILY_COUNT; k++)
                        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "",
                                                 q7_family_name((q7_family)k));
                    rc = cli_usage_error("verify: unknown family '%s' (families: %s)", item, names);
                } else {
                    family_sel[f] = families_given = true;
                }
            }
        } else if (strcmp(a, "--leaf") == 0) {
            char *cur = v, *item;
            while (rc == CLI_OK && (item = next_item(&cur))) rc = select_leaf(&r, item, &leaves_given);
        } else if (strcmp(a, "--seed") == 0) {
            rc = parse_count(a, v, &r.params.seed);
        } else if (strcmp(a, "--threads") == 0) {
            if ((rc = parse_count(a, v, &n)) == CLI_OK && (n == 0 || n > 256))
                rc = cli_usage_error("verify: --threads '%s' must be 1..256", v);
            o.threads = (unsigned)n;
        } else if (strcmp(a, "--shard") == 0) {
            rc = parse_shard(&r, v);
        } else if (strcmp(a, "--json") == 0) {
            out.json = v;
        } else if (strcmp(a, "--markdown") == 0) {
            out.markdown = v;
        } else if (strcmp(a, "--junit") == 0) {
            out.junit = v;
        } else if (strcmp(a, "--fuzz-count") == 0) {
            rc = parse_fuzz_count(&r, v);
        } else if (strcmp(a, "--exhaustive-max") == 0) {
            rc = parse_count(a, v, &r.params.exhaustive_max);
            exmax_given = true;
        } else if (strcmp(a, "--max-report") == 0) {
            if ((rc = parse_count(a, v, &n)) == CLI_OK && n > 1000)
                rc = cli_usage_error("verify: --max-report '%s' must be at most 1000", v);
            r.max_report = (unsigned)n;
        } else if (strcmp(a, "--timeout") == 0) {
            rc = parse_timeout(&r, v);
        } else if (strcmp(a, "--host-path") == 0) {
            rc = check_host_path("--host-path", v);
            o.host_path = v;
        } else if (strcmp(a, "--python") == 0) {
            o.python = v;
        } else if (strcmp(a, "--numpy-oracle") == 0) {
            o.numpy_program = v;
        } else if (strcmp(a, "--compare-aux") == 0) {
            r.compare_aux = true;
        } else if (strcmp(a, "--by-leaf") == 0) {
            out.by_leaf = true;
        } else if (strcmp(a, "--quiet") == 0) {
            out.quiet = true;
        } else if (strcmp(a, "--progress") == 0) {
            o.progress = true;
        } else if (strcmp(a, "--no-progress") == 0) {
            o.progress = false;
        } else {
            rc = cli_usage_error("verify: unknown option '%s' (try q7pred verify --help)", a);
        }
    }
    /* the environment's forcing (Q7PRED_HOST) is checked like the option */
    const char *env_host = getenv("Q7PRED_HOST");
    if (rc == CLI_OK && o.use_host && !o.host_path && env_host && *env_host)
        rc = check_host_path("Q7PRED_HOST", env_host);
    if (rc == CLI_OK && !corpus_given && !exmax_given) r.params.exhaustive_max = 1u << 16;
    if (rc == CLI_OK && families_given)
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            const q7_leaf *leaf = q7_leaf_at(i);
            bool in_family = family_sel[leaf->family];
            r.selected[i] = leaves_given ? r.selected[i] && in_family : in_family;
        }
    if (rc == CLI_OK) {
        bool any = false;
        for (size_t i = 0; i < q7_leaf_count(); i++) any |= r.selected[i];
        if (!any) rc = cli_usage_error("verify: --family and --leaf select no leaf together");
    }
    if (rc == CLI_OK) rc = probe_output(out.json);
    if (rc == CLI_OK) rc = probe_output(out.markdown);
    if (rc == CLI_OK) rc = probe_output(out.junit);
    if (rc == CLI_OK) {
        char err[1024];
        if (q7d_run(&r, &o, err, sizeof err) != 0) rc = cli_usage_error("verify: %s", err);
        else rc = write_reports(&r, &out);
    }
    q7d_results_free(&r);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    outputs out = { NULL, NULL, NULL, false, false };
    const char **names = calloc((size_t)argc, sizeof *names);
    size_t n = 0;
    int rc = names ? CLI_OK : cli_usage_error("merge: out of memory");
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            merge_help(stdout);
            free(names);
            return CLI_OK;
        } else if (strcmp(a, "--json") == 0 || strcmp(a, "--markdown") == 0 || strcmp(a, "--junit") == 0) {
            if (i + 1 >= argc) {
                rc = cli_usage_error("merge: %s needs a value", a);
                break;
            }
            const char **slot = strcmp(a, "--json") == 0 ? &out.json : strcmp(a, "--markdown") == 0 ? &out.markdown
                                                                                                  : &out.junit;
            *slot = argv[++i];
        } else if (strcmp(a, "--by-leaf") == 0) {
            out.by_leaf = true;
        } else if (strcmp(a, "--quiet") == 0) {
            out.quiet = true;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_usage_error("merge: unknown option '%s' (try q7pred merge --help)", a);
        } else {
            names[n++] = a;
        }
    }
    if (rc == CLI_OK && n == 0) rc = cli_usage_error("merge: give the shard reports (q7pred merge A.json B.json ...)");
    q7d_results **parts = rc == CLI_OK ? calloc(n, sizeof *parts) : NULL;
    if (rc == CLI_OK && !parts) rc = cli_usage_error("merge: out of memory");
    size_t loaded = 0;
    for (; rc == CLI_OK && loaded < n; loaded++) {
        char err[1024];
        parts[loaded] = malloc(sizeof **parts);
        if (!parts[loaded]) {
            rc = cli_usage_error("merge: out of memory");
            break;
        }
        if (!q7d_report_read(names[loaded], parts[loaded], err, sizeof err)) {
            free(parts[loaded]);
            rc = cli_usage_error("merge: %s", err);
            break;
        }
    }
    if (rc == CLI_OK) rc = probe_output(out.json);
    if (rc == CLI_OK) rc = probe_output(out.markdown);
    if (rc == CLI_OK) rc = probe_output(out.junit);
    if (rc == CLI_OK) {
        static q7d_results merged;
        char err[1024];
        if (!q7d_merge(parts, names, n, &merged, err, sizeof err)) {
            rc = cli_usage_error("%s", err);
        } else {
            rc = write_reports(&merged, &out);
            q7d_results_free(&merged);
        }
    }
    for (size_t i = 0; parts && i < loaded; i++) {
        q7d_results_free(parts[i]);
        free(parts[i]);
    }
    free(parts);
    free(names);
    return rc;
}
