/* q7pred merge: combines the JSON reports of verify shards. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_files.h"

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

/* The report files from the options, the shard reports' names in names[]. */
static int parse_merge_options(int argc, char **argv, report_files *out, const char **names, size_t *n, bool *help)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            *help = true;
            return CLI_OK;
        } else if (strcmp(a, "--json") == 0 || strcmp(a, "--markdown") == 0 || strcmp(a, "--junit") == 0) {
            if (i + 1 >= argc) return cli_usage_error("merge: %s needs a value", a);
            const char **slot = strcmp(a, "--json") == 0 ? &out->json : strcmp(a, "--markdown") == 0 ? &out->markdown
                                                                                                   : &out->junit;
            *slot = argv[++i];
        } else if (strcmp(a, "--by-leaf") == 0) {
            out->by_leaf = true;
        } else if (strcmp(a, "--quiet") == 0) {
            out->quiet = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("merge: unknown option '%s' (try q7pred merge --help)", a);
        } else {
            names[(*n)++] = a;
        }
    }
    if (*n == 0) return cli_usage_error("merge: give the shard reports (q7pred merge A.json B.json ...)");
    return CLI_OK;
}

/* Reads the n reports into parts[]; *loaded says how many to free. */
static int read_reports(const char *const *names, size_t n, q7d_results **parts, size_t *loaded)
{
    for (*loaded = 0; *loaded < n; ++*loaded) {
        char err[1024];
        q7d_results *p = malloc(sizeof *p);
        if (!p) return cli_usage_error("merge: out of memory");
        if (!q7d_report_read(names[*loaded], p, err, sizeof err)) {
            free(p);
            return cli_usage_error("merge: %s", err);
        }
        parts[*loaded] = p;
    }
    return CLI_OK;
}

static int merge_and_write(q7d_results *const *parts, const char *const *names, size_t n, const report_files *out)
{
    static q7d_results merged;   /* large: not on the stack */
    char err[1024];
    int rc = report_files_probe(out);
    if (rc != CLI_OK) return rc;
    if (!q7d_merge(parts, names, n, &merged, err, sizeof err)) return cli_usage_error("%s", err);
    rc = report_files_write(&merged, out);
    q7d_results_free(&merged);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    report_files out = { NULL, NULL, NULL, false, false };
    const char **names = calloc((size_t)argc, sizeof *names);
    q7d_results **parts = calloc((size_t)argc, sizeof *parts);
    size_t n = 0, loaded = 0;
    bool help = false;
    int rc = names && parts ? parse_merge_options(argc, argv, &out, names, &n, &help)
                            : cli_usage_error("merge: out of memory");
    if (rc == CLI_OK && help) merge_help(stdout);
    else if (rc == CLI_OK && (rc = read_reports(names, n, parts, &loaded)) == CLI_OK)
        rc = merge_and_write(parts, names, n, &out);
    for (size_t i = 0; i < loaded; i++) {
        q7d_results_free(parts[i]);
        free(parts[i]);
    }
    free(parts);
    free(names);
    return rc;
}
