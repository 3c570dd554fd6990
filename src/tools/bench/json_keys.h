/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The keys of the `bench --json` document, each spelled
 * once: the writers (report.c, speed_report.c) name a key by BENCH_KEY(k).
 * The vector rows' per-path keys are made from the path table's names
 * ("<path>_ns"), not spelled at all.
 */
#ifndef Q7_BENCH_JSON_KEYS_H
#define Q7_BENCH_JSON_KEYS_H

#define BENCH_JSON_KEYS(X)                                                                           \
    X(machine) X(cpu) X(cores) X(quick) X(batch_path) X(host_path) X(leaf) X(pairs) X(throughput)    \
    X(method) X(ns_per_eval) X(gevals_per_s) X(note) X(ratios) X(batch_over_silicon)                 \
    X(batch_over_ctypes) X(batch_over_numpy) X(ufunc_over_batch) X(other_leaves) X(abi_ns)           \
    X(batch_ns) X(silicon_ns) X(portable_vs_best) X(best_path) X(kinds) X(kind) X(best_ns)           \
    X(portable_ns) X(portable_over_best) X(leaf_call) X(exported_dlsym_ns) X(minimal_ns) X(ratio)    \
    X(vector) X(path) X(silicon_via) X(q7v_oltnxf16_ns) X(q7v_oltnxf16_t_ns) X(slowest_avx512_ns)    \
    X(mnemonic) X(value) X(largest_portable_over_simd) X(largest_best_over_silicon) X(instructions)  \
    X(exec) X(bytes) X(parse_mb_s) X(parse_ns_per_statement) X(run_ns_per_instruction)               \
    X(run_minstr_s) X(array_ns_per_instruction) X(run_over_array) X(registers_agree) X(exhaustive)   \
    X(run) X(threads) X(ok) X(extrapolated) X(wall_s) X(peak_rss_mib) X(cases) X(mismatches) X(via)

typedef enum bench_json_key {
#define BENCH_JSON_KEY_ID(k) BENCH_K_##k,
    BENCH_JSON_KEYS(BENCH_JSON_KEY_ID)
#undef BENCH_JSON_KEY_ID
    BENCH_JSON_KEY_COUNT
} bench_json_key;
extern const char *const bench_json_keys[BENCH_JSON_KEY_COUNT];
#define BENCH_KEY(k) (bench_json_keys[BENCH_K_##k])

#endif
