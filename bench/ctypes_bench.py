# SPDX-License-Identifier: BSD-3-Clause
"""Python ctypes timing for `q7pred bench`: the spec's driver method, one
ctypes call of module__xdref_olt_1_1_16f_16f (ordered fp16, 5 arguments,
result in the 5th) per pair, over the first M pairs of FILE.

usage: ctypes_bench.py LIB FILE N M
prints one JSON line: ns_per_call, calls, trues.
"""
import ctypes
import json
import struct
import sys
import time


def main():
    lib_path, path, n, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    m = min(m, n)
    lib = ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)
    u = ctypes.c_uint32
    p = ctypes.POINTER(u)
    f = getattr(lib, "module__xdref_olt_1_1_16f_16f")
    f.restype = None
    f.argtypes = [ctypes.c_void_p, u, u, p, p]
    with open(path, "rb") as fh:
        data = fh.read(4 * n)
    words = struct.unpack("<%dH" % (2 * n), data)
    a, b = words[:m], words[n:n + m]
    aux, out = u(0), u(0)
    trues = 0
    t0 = time.perf_counter()
    for i in range(m):
        f(None, a[i], b[i], ctypes.byref(aux), ctypes.byref(out))
        trues += out.value
    dt = time.perf_counter() - t0
    print(json.dumps({"ns_per_call": dt * 1e9 / m, "calls": m, "trues": trues}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
