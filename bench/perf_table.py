# SPDX-License-Identifier: BSD-3-Clause
"""Markdown tables for docs/performance.md from a `q7pred bench --json` file.

usage: perf_table.py BENCH_JSON
"""
import json
import sys


def fmt(x, spec):
    return "n/a" if x is None else format(x, spec)


PATHS = ("avx512", "avx2", "portable")


def best(r):
    ns = [r[p + "_ns"] for p in PATHS if r[p + "_ns"] is not None]
    return min(ns) if ns else None


def simd(r):
    return r["avx512_ns"] if r["avx512_ns"] is not None else r["avx2_ns"]


def ratio(x, y):
    return None if x is None or not y else x / y


def table(title, columns, rows):
    """A titled markdown table: columns a list of names, a name ending in
    ">" right-aligned; rows lists of cells."""
    print()
    print(title)
    print()
    print("| %s |" % " | ".join(c.rstrip(">") for c in columns))
    print("|%s|" % "|".join("---:" if c.endswith(">") else "---" for c in columns))
    for r in rows:
        print("| %s |" % " | ".join(str(c) for c in r))


def vector_tables(v):
    si = v["silicon_ns"]
    named = [["`%s` (the named function, %s)" % (name, v["path"]), "", fmt(v[key], ".2f"), "", "",
              fmt(ratio(v[key], si), ".2f") + " x", ""]
             for name, key in (("q7v_oltnxf16", "q7v_oltnxf16_ns"), ("q7v_oltnxf16_t", "q7v_oltnxf16_t_ns"))]
    rows = [r for r in v["instructions"] if r["mnemonic"].endswith(("nxf16", "nxf16_t")) and r["kind"] in ("CMP", "CMP_T")]
    for kind in dict.fromkeys(r["kind"] for r in v["instructions"]):    # the kinds in table order
        slow = max((r for r in v["instructions"] if r["kind"] == kind), key=best)
        if slow not in rows:
            rows.append(slow)
    table("Vector instructions, ns per 512-bit instruction (path in force `%s`); the anchor, timed in the same run:"
          " one 32-lane fp16 compare by the silicon, %s ns (%s)." % (v["path"], fmt(si, ".3f"), v["silicon_via"]),
          ["instruction", "kind", "avx512>", "avx2>", "portable>", "best / silicon>", "portable / simd>"],
          named + [[r["mnemonic"], r["kind"], fmt(r["avx512_ns"], ".2f"), fmt(r["avx2_ns"], ".2f"),
                    fmt(r["portable_ns"], ".2f"), fmt(ratio(best(r), si), ".2f") + " x",
                    fmt(ratio(r["portable_ns"], simd(r)), ".2f") + " x"] for r in rows])
    w = v["slowest_avx512_ns"]
    p = v["largest_portable_over_simd"]
    print()
    print("The fp16 compares, then each kind's slowest row (all %d in the JSON). Slowest on avx512: %s, %s ns;"
          " largest portable / simd: %s, %s x." % (len(v["instructions"]), w["mnemonic"], fmt(w["value"], ".2f"),
                                                   p["mnemonic"], fmt(p["value"], ".2f")))


def main():
    j = json.load(open(sys.argv[1]))
    print("Machine: %s, %d cores; batch path `%s`, host path `%s`%s." % (
        j["machine"]["cpu"], j["machine"]["cores"], j["batch_path"], j["host_path"],
        " (--quick: exhaustive runs on 1/64 of each space, extrapolated)" if j["quick"] else ""))
    table("Throughput, `%s`, %d pairs, the same arrays for every method:" % (j["leaf"], j["pairs"]),
          ["method", "ns/eval>", "G evals/s>", "note"],
          [[r["method"], fmt(r["ns_per_eval"], ".3f"), fmt(r["gevals_per_s"], ".4f"), r["note"]]
           for r in j["throughput"]])
    q = j["ratios"]
    print()
    print("Ratios (throughput): batch/silicon **%s x**, batch/ctypes %s x, batch/numpy %s x, ufunc/batch %s x." % (
        fmt(q["batch_over_silicon"], ".2f"), fmt(q["batch_over_ctypes"], ".0f"), fmt(q["batch_over_numpy"], ".1f"),
        fmt(q.get("ufunc_over_batch"), ".2f")))
    table("Other leaves, ns/eval on their own arrays:",
          ["leaf", "ABI via pointer>", "batch>", "silicon>", "batch/silicon>"],
          [[r["leaf"], "%.3f" % r["abi_ns"], "%.3f" % r["batch_ns"], "%.3f" % r["silicon_ns"],
            "%.2f x" % (r["silicon_ns"] / r["batch_ns"])] for r in j["other_leaves"]])
    pb = j["portable_vs_best"]
    table("Portable vs best batch path (`%s`), ns/eval per operation kind on its own arrays:" % pb["best_path"],
          ["kind", "leaf", "best>", "portable>", "portable/best>"],
          [[r["kind"], r["leaf"], fmt(r["best_ns"], ".3f"), fmt(r["portable_ns"], ".3f"),
            fmt(r["portable_over_best"], ".2f") + " x"] for r in pb["kinds"]])
    c = j["leaf_call"]
    table("One exported leaf call, `%s`, one pair per call through a function pointer:" % c["leaf"],
          ["method", "ns/call>"],
          [["`module__xdref_%s` from the library (%s)" % (c["leaf"], c["note"]), fmt(c["exported_dlsym_ns"], ".3f")],
           ["minimal hand-written leaf (the bench's own unit)", fmt(c["minimal_ns"], ".3f")]])
    print()
    print("Ratio exported / minimal: **%s x**." % fmt(c["ratio"], ".2f"))
    vector_tables(j["vector"])
    e = j["exec"]
    table("`q7pred exec`, %d instructions (compares, _t compares, vbool logic in thirds), parsed once:"
          % e["instructions"], ["phase", "rate>", "per item>"],
          [["parse (%d bytes)" % e["bytes"], fmt(e["parse_mb_s"], ".1f") + " MB/s",
            fmt(e["parse_ns_per_statement"], ".1f") + " ns per statement"],
           ["run", fmt(e["run_minstr_s"], ".1f") + " M instr/s", fmt(e["run_ns_per_instruction"], ".2f") + " ns"],
           ["the same calls from an array (`q7v_do_*`)", "", fmt(e["array_ns_per_instruction"], ".2f") + " ns"]])
    print()
    print("Ratio run / array: **%s x**." % fmt(e["run_over_array"], ".2f"))
    table("Exhaustive runs, each in its own child process (wall time and that process's peak RSS):",
          ["run", "threads>", "wall s>", "peak RSS MiB>", "cases>", "mismatches>", "via"],
          [[r["run"], r["threads"] or "engine", fmt(r["wall_s"], ".2f"), fmt(r["peak_rss_mib"], ".1f"),
            fmt(r["cases"], ".0f"), fmt(r["mismatches"], ".0f"), r["via"]] for r in j["exhaustive"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
