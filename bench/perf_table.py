"""Markdown tables for docs/performance.md from a `q7pred bench --json` file.

usage: perf_table.py BENCH_JSON
"""
import json
import sys


def fmt(x, spec):
    return "n/a" if x is None else format(x, spec)


def main():
    j = json.load(open(sys.argv[1]))
    print("Machine: %s, %d cores; batch path `%s`, host path `%s`%s." % (
        j["machine"]["cpu"], j["machine"]["cores"], j["batch_path"], j["host_path"],
        " (--quick: exhaustive runs on 1/64 of each space, extrapolated)" if j["quick"] else ""))
    print()
    print("Throughput, `%s`, %d pairs, the same arrays for every method:" % (j["leaf"], j["pairs"]))
    print()
    print("| method | ns/eval | G evals/s | note |")
    print("|---|---:|---:|---|")
    for r in j["throughput"]:
        print("| %s | %s | %s | %s |" % (r["method"], fmt(r["ns_per_eval"], ".3f"),
                                         fmt(r["gevals_per_s"], ".4f"), r["note"]))
    q = j["ratios"]
    print()
    print("Ratios (throughput): batch/silicon **%s x**, batch/ctypes %s x, batch/numpy %s x, ufunc/batch %s x." % (
        fmt(q["batch_over_silicon"], ".2f"), fmt(q["batch_over_ctypes"], ".0f"), fmt(q["batch_over_numpy"], ".1f"),
        fmt(q.get("ufunc_over_batch"), ".2f")))
    print()
    print("Other leaves, ns/eval on their own arrays:")
    print()
    print("| leaf | ABI via pointer | batch | silicon | batch/silicon |")
    print("|---|---:|---:|---:|---:|")
    for r in j["other_leaves"]:
        print("| %s | %.3f | %.3f | %.3f | %.2f x |" % (r["leaf"], r["abi_ns"], r["batch_ns"], r["silicon_ns"],
                                                     r["silicon_ns"] / r["batch_ns"]))
    pb = j["portable_vs_best"]
    print()
    print("Portable vs best batch path (`%s`), ns/eval per operation kind on its own arrays:" % pb["best_path"])
    print()
    print("| kind | leaf | best | portable | portable/best |")
    print("|---|---|---:|---:|---:|")
    for r in pb["kinds"]:
        print("| %s | %s | %s | %s | %s x |" % (r["kind"], r["leaf"], fmt(r["best_ns"], ".3f"),
                                              fmt(r["portable_ns"], ".3f"), fmt(r["portable_over_best"], ".2f")))
    print()
    print("Exhaustive runs, each in its own child process (wall time and that process's peak RSS):")
    print()
    print("| run | threads | wall s | peak RSS MiB | cases | mismatches | via |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for r in j["exhaustive"]:
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["run"], r["threads"] or "engine", fmt(r["wall_s"], ".2f"), fmt(r["peak_rss_mib"], ".1f"),
            fmt(r["cases"], ".0f"), fmt(r["mismatches"], ".0f"), r["via"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
