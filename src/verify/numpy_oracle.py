#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# q7pred-numpy-oracle-protocol: 1
"""The numpy oracle of `q7pred verify` (the spec's nki-style simulator leg).

It expresses a leaf with numpy primitives only: integer compares on
dtype-typed views (int8/uint8 ... int32/uint32), fp16 compares with numpy's
IEEE ufuncs on float16 views (unordered built as isnan(a) | isnan(b) | op),
and AND/OR/XOR vbool logic with numpy bit operations on uint64.

It covers a strict subset, as spec section 9.2 says: numpy has no primitive
for the fp field-width replication (_1_2/_1_4 and the _t tails built on
them), the 8-bit classify mask, bitkillt/f, the FS bank, extbi/injbi, or the
bit-spread; andnotb/ornotb/notb and the 1-bit BR forms are outside the AND/OR/
XOR logic it exposes. Those answer NO and are n/a in its column.

Protocol on stdin/stdout (see src/verify/oracle_numpy.c):
  COVERS <suffix>                              -> YES | NO <why>
  EVAL <suffix> <n> <in_words> <out_words>     + in_words*n little-endian u32
                                               -> OK + out_words*n u32 | ERR <why>
  QUIT
"""
import platform
import re
import sys

INT_RE = re.compile(r"^(lt|ltu|le|leu|eq|neq)_(1_8_8|2_16_16|4_32_32)$")
FP_RE = re.compile(r"^(oeq|olt|ole|un|ueq|ult|ule)_1_1_16f_16f$")
MASK_OPS = ("andb_64_64_64", "orb_64_64_64", "xorb_64_64_64")


def why_not(suffix):
    """None if the leaf is expressible, else the reason it is not."""
    if INT_RE.match(suffix) or FP_RE.match(suffix) or suffix in MASK_OPS:
        return None
    if re.match(r"^(oeq|olt|ole|un|ueq|ult|ule)_1_[24]_", suffix):
        return "no numpy primitive for the fp field-width replication (_1_2/_1_4)"
    if suffix.startswith("clsfy"):
        return "no numpy primitive for the 8-bit class mask"
    if suffix.startswith("bitkill"):
        return "no numpy primitive for bitkillt/bitkillf"
    if re.match(r"^(fs\dltu|borfs|bnorfs)", suffix):
        return "no numpy primitive for the FS bank"
    if suffix.startswith(("extbi", "injbi")):
        return "no numpy primitive for extbi/injbi"
    if suffix.startswith(("movfsv", "movvfs")):
        return "no numpy primitive for the bit-spread"
    return "outside the AND/OR/XOR mask logic numpy exposes"


def int_compare(np, suffix, a, b):
    op, widths = INT_RE.match(suffix).groups()
    field, lane = (int(x) for x in widths.split("_")[:2])
    utype = {8: np.uint8, 16: np.uint16, 32: np.uint32}[lane]
    stype = {8: np.int8, 16: np.int16, 32: np.int32}[lane]
    ua, ub = a.astype(utype), b.astype(utype)
    sa, sb = ua.view(stype), ub.view(stype)
    truth = {
        "lt": lambda: sa < sb, "le": lambda: sa <= sb,
        "ltu": lambda: ua < ub, "leu": lambda: ua <= ub,
        "eq": lambda: ua == ub, "neq": lambda: ua != ub,
    }[op]()
    return np.where(truth, np.uint32((1 << field) - 1), np.uint32(0))


def fp16_compare(np, suffix, a, b):
    op = FP_RE.match(suffix).group(1)
    fa = a.astype(np.uint16).view(np.float16)
    fb = b.astype(np.uint16).view(np.float16)
    unordered = np.isnan(fa) | np.isnan(fb)
    truth = {
        "oeq": lambda: fa == fb, "olt": lambda: fa < fb, "ole": lambda: fa <= fb,
        "un": lambda: unordered,
        "ueq": lambda: unordered | (fa == fb),
        "ult": lambda: unordered | (fa < fb),
        "ule": lambda: unordered | (fa <= fb),
    }[op]()
    return truth.astype(np.uint32)


def mask_logic(np, suffix, words):
    def vbool(lo, hi):
        return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))
    a, b = vbool(words[0], words[1]), vbool(words[2], words[3])
    r = {"andb": a & b, "orb": a | b, "xorb": a ^ b}[suffix.split("_")[0]]
    return [(r & np.uint64(0xFFFFFFFF)).astype(np.uint32), (r >> np.uint64(32)).astype(np.uint32)]


def evaluate(np, suffix, words, n, out_words):
    out = np.zeros((out_words, n), dtype=np.uint32)
    with np.errstate(all="ignore"):
        if INT_RE.match(suffix):
            out[0] = int_compare(np, suffix, words[0], words[1])
        elif FP_RE.match(suffix):
            out[0] = fp16_compare(np, suffix, words[0], words[1])   # ORD's aux word stays 0
        else:
            out[0], out[1] = mask_logic(np, suffix, words)
    return out


def read_exact(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main():
    inp, outp = sys.stdin.buffer, sys.stdout.buffer
    try:
        import numpy as np
    except Exception as e:  # the column then says so
        outp.write(("NONUMPY numpy unavailable: %s\n" % e).encode())
        outp.flush()
        return 0
    outp.write(("READY numpy %s, python %s\n" % (np.__version__, platform.python_version())).encode())
    outp.flush()
    while True:
        line = inp.readline()
        if not line:
            return 0
        parts = line.decode().split()
        if not parts or parts[0] == "QUIT":
            return 0
        if parts[0] == "COVERS" and len(parts) == 2:
            reason = why_not(parts[1])
            outp.write(b"YES\n" if reason is None else ("NO %s\n" % reason).encode())
        elif parts[0] == "EVAL" and len(parts) == 5:
            suffix = parts[1]
            n, in_words, out_words = (int(x) for x in parts[2:])
            data = read_exact(inp, 4 * n * in_words)
            if data is None:
                return 1
            if why_not(suffix) is not None:
                outp.write(("ERR %s is not expressible in numpy\n" % suffix).encode())
            else:
                words = np.frombuffer(data, dtype="<u4").reshape(in_words, n)
                result = evaluate(np, suffix, words, n, out_words)
                outp.write(b"OK\n")
                outp.write(result.astype("<u4").tobytes())
        else:
            outp.write(("ERR bad request %r\n" % line[:60]).encode())
        outp.flush()


if __name__ == "__main__":
    sys.exit(main())
