# SPDX-License-Identifier: BSD-3-Clause
"""q7pred package timing for `q7pred bench`: the ufunc of the bench's leaf
on the operand pairs of FILE (uint16 A then B, viewed as float16), the
same comparison on 4M pairs (FILE's pairs repeated) against numpy's own
np.less on the same float16 arrays and against the C batch kernels of LIB
(via ctypes, one call each: q7_leaf_eval_batch on the pairs as uint32
arrays, and q7_leaf_eval_batch16, which the ufunc calls, on the float16
arrays themselves), and the vector function oltnxf16 on FILE's pairs as
registers of 32 lanes.
The 4M and vector figures are the fastest of many single calls (taking
turns), the per-pair row best_ns like the numpy row.

usage: ufunc_bench.py PACKAGE_DIR LIB FILE N MIN_SECONDS
PACKAGE_DIR holds the built package (q7pred/). Prints one JSON line:
ns_per_eval, trues (pairs that compare true, for the bench to check),
ufunc_4m_ns, less_4m_ns, batch_4m_ns, batch16_4m_ns, vec_ns_per_register, vec_call_us,
registers, vec_trues (lanes that compare true); or {"error": ...} when the
package or numpy is missing.
"""
import ctypes
import json
import sys

from numpy_bench import best_ns     # the same timing as the numpy row

LEAF = "olt_1_1_16f_16f"
REPEAT_4M = 256          # 16384 pairs x 256 = 4,194,304


def interleaved_min_ns(fns, count, min_s):
    """ns per item of each fn: the fastest of many single calls, the fns
    taking turns, so that other load on the machine slows none of them
    more than the others."""
    import time
    best = [None] * len(fns)
    t_end, samples = time.perf_counter() + min_s, 0
    while samples < 5 or time.perf_counter() < t_end:
        for k, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            ns = (time.perf_counter() - t0) * 1e9 / count
            best[k] = ns if best[k] is None else min(best[k], ns)
        samples += 1
    return best


def batch_kernel(lib_path, a, b, entry="q7_leaf_eval_batch"):
    """A callable running a C batch kernel of lib on a, b: q7_leaf_eval_batch
    on uint32 arrays, or q7_leaf_eval_batch16 on 16-bit ones (its aux word
    left out, as the ufunc does)."""
    import numpy as np
    lib = ctypes.CDLL(lib_path)
    lib.q7_leaf_find.restype = ctypes.c_void_p
    lib.q7_leaf_find.argtypes = [ctypes.c_char_p]
    run = getattr(lib, entry)
    run.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p]
    leaf = lib.q7_leaf_find(LEAF.encode())
    out, aux = np.empty(a.size, np.uint32), np.empty(a.size, np.uint32)
    ins = (ctypes.c_void_p * 3)(a.ctypes.data, b.ctypes.data, None)
    outs = (ctypes.c_void_p * 2)(out.ctypes.data, aux.ctypes.data if entry == "q7_leaf_eval_batch" else None)
    keep = (a, b, out, aux)         # the arrays live as long as the callable
    return lambda: run(leaf, keep[0].size, ins, outs)


def main():
    pkg, lib_path, path, n, min_s = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
    sys.path.insert(0, pkg)
    try:
        import numpy as np
        import q7pred
    except ImportError as e:
        print(json.dumps({"error": "q7pred not importable from %s (make python): %s" % (pkg, e)}))
        return 0
    words = np.fromfile(path, dtype="<u2", count=2 * n)
    a, b = words[:n].view(np.float16), words[n:].view(np.float16)
    ufunc = getattr(q7pred, LEAF)
    out = np.empty(n, np.uint32)
    ns = best_ns(lambda: ufunc(a, b, out=out), n, min_s)
    trues = int(np.count_nonzero(out))

    a4, b4 = np.tile(a, REPEAT_4M), np.tile(b, REPEAT_4M)
    out4, res4 = np.empty(a4.size, np.uint32), np.empty(a4.size, bool)
    batch = batch_kernel(lib_path, a4.view(np.uint16).astype(np.uint32), b4.view(np.uint16).astype(np.uint32))
    batch16 = batch_kernel(lib_path, a4, b4, "q7_leaf_eval_batch16")
    ufunc_4m, less_4m, batch_4m, batch16_4m = interleaved_min_ns(
        [lambda: ufunc(a4, b4, out=out4), lambda: np.less(a4, b4, out=res4), batch, batch16], a4.size, 2 * min_s)
    del a4, b4, out4, res4, batch, batch16

    regs = n // 32
    ra, rb = a[:regs * 32].reshape(regs, 32), b[:regs * 32].reshape(regs, 32)
    vout, one = np.empty(regs, np.uint64), np.empty((), np.uint64)
    vec_ns, = interleaved_min_ns([lambda: q7pred.vec.oltnxf16(ra, rb, out=vout)], regs, min_s)
    call_us = interleaved_min_ns([lambda: q7pred.vec.oltnxf16(ra[0], rb[0], out=one)], 1, min_s / 4)[0] / 1000
    vec_trues = int(np.count_nonzero(q7pred.vec.unpack_fields(vout, "nxf16")))
    print(json.dumps({"ns_per_eval": ns, "trues": trues, "ufunc_4m_ns": ufunc_4m, "less_4m_ns": less_4m,
                      "batch_4m_ns": batch_4m, "batch16_4m_ns": batch16_4m, "vec_ns_per_register": vec_ns, "vec_call_us": call_us,
                      "registers": regs, "vec_trues": vec_trues}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
