# SPDX-License-Identifier: BSD-3-Clause
"""numpy oracle timing for `q7pred bench`: the fp16 ordered less-than of the
same operand arrays the C side timed (uint16 patterns, A then B, in FILE).

usage: numpy_bench.py FILE N MIN_SECONDS
prints one JSON line: ns_per_eval, trues (how many pairs compare true, for
the bench to check against its own count), numpy version; or
{"error": ...} when numpy is missing.
"""
import json
import sys
import time


def best_ns(fn, count, min_s):
    """ns per item of fn() over count items: best of three runs of at least min_s / 3."""
    best = None
    for _ in range(3):
        reps, t0 = 0, time.perf_counter()
        while True:
            fn()
            reps += 1
            dt = time.perf_counter() - t0
            if dt >= min_s / 3:
                break
        ns = dt * 1e9 / (reps * count)
        best = ns if best is None else min(best, ns)
    return best


def main():
    path, n, min_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    try:
        import numpy as np
    except ImportError as e:
        print(json.dumps({"error": "numpy not available: %s" % e}))
        return 0
    words = np.fromfile(path, dtype="<u2", count=2 * n)
    a = words[:n].view(np.float16)
    b = words[n:].view(np.float16)
    res = np.empty(n, dtype=bool)
    best = best_ns(lambda: np.less(a, b, out=res), n, min_s)
    print(json.dumps({"ns_per_eval": best, "trues": int(res.sum()), "numpy": np.__version__}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
