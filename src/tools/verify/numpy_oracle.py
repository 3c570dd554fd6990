#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# q7pred-numpy-oracle-protocol: 1
"""The numpy oracle of `q7pred verify` (the spec's nki-style simulator leg).

It expresses a leaf with numpy primitives only: integer compares on
dtype-typed views (int8/uint8 ... int32/uint32), fp16 compares with numpy's
IEEE ufuncs on float16 views (unordered built as isnan(a) | isnan(b) | op),
and AND/OR/XOR vbool logic with numpy bit operations on uint64.

It covers a strict subset, as spec section 9.2 says, and decides what it
covers from the leaf's row as the tool sends it (its family, widths, shape
and mnemonic, the spec's name of the operation), never from the spelling of
its name: numpy has no primitive for the fp field-width replication (fields
of 2 or 4 bits, and the predicated tails built on them), the 8-bit classify
mask, bitkillt/f, the FS bank, extbi/injbi, or the bit-spread; andnotb/
ornotb/notb and the 1-bit BR forms are outside the AND/OR/XOR logic it
exposes. Those, and any row it does not recognise, answer NO with the
attribute that rules them out, and are n/a in its column.

Protocol on stdin/stdout (see src/tools/verify/oracles/oracle_numpy_client.c):
  COVERS <suffix> family=F shape=S field=N operand=N in=N out=N aux=N mnemonic=M
                                               -> YES | NO <why>
  EVAL <suffix> <n> <in_words> <out_words>     + in_words*n little-endian u32
                                               -> OK + out_words*n u32 | ERR <why>
  QUIT
"""
import platform
import sys

# The relations numpy expresses, by the spec's mnemonics: on dtype-typed
# integer views (signed or unsigned), on float16 (unordered ones as
# isnan(a) | isnan(b) | op), and the vbool logic on uint64.
INT_RELATIONS = {
    "lt": ("signed", "lt"), "le": ("signed", "le"),
    "ltu": ("unsigned", "lt"), "leu": ("unsigned", "le"),
    "eq": ("unsigned", "eq"), "neq": ("unsigned", "ne"),
}
FP_RELATIONS = {
    "oeq": (False, "eq"), "olt": (False, "lt"), "ole": (False, "le"),
    "un": (True, None), "ueq": (True, "eq"), "ult": (True, "lt"), "ule": (True, "le"),
}
MASK_OPS = {"andb": "and", "orb": "or", "xorb": "xor"}

# Families numpy has no primitive for, and why.
NO_PRIMITIVE = {
    "fp-tail": "no numpy primitive for the fp field-width replication and tail gate (_2f_t/_4f_t)",
    "classify": "no numpy primitive for the 8-bit class mask",
    "bitkill": "no numpy primitive for bitkillt/bitkillf",
    "fs-bank": "no numpy primitive for the FS bank",
    "bit-plane": "no numpy primitive for extbi/injbi",
    "bit-spread": "no numpy primitive for the bit-spread",
}

ATTRIBUTES = ("family", "shape", "field", "operand", "in", "out", "aux", "mnemonic")


def attributes(words):
    """The row's attributes from key=value words, or None if one is missing
    or a width is not a number."""
    row = dict(w.split("=", 1) for w in words if "=" in w)
    if any(k not in row for k in ATTRIBUTES):
        return None
    try:
        for k in ("field", "operand", "in", "out", "aux"):
            row[k] = int(row[k])
    except ValueError:
        return None
    return row


def plan(row):
    """(how to compute the leaf, None) if numpy expresses it, else (None, why)."""
    if row is None:
        return None, "the request names no leaf attributes"
    family, m = row["family"], row["mnemonic"]
    primary = row["out"] - row["aux"]
    if family == "int-compare":
        if m not in INT_RELATIONS:
            return None, "no integer relation named %s" % m
        if row["operand"] not in (8, 16, 32) or row["in"] != 2 or primary != 1 or not 1 <= row["field"] <= 32:
            return None, "an integer compare of %d-bit lanes into %d bits is no dtype compare" % (
                row["operand"], row["field"])
        return ("int", INT_RELATIONS[m], row["operand"], row["field"]), None
    if family == "fp-compare":
        if m not in FP_RELATIONS:
            return None, "no fp relation named %s" % m
        if row["field"] != 1:
            return None, "no numpy primitive for the fp field-width replication (a %d-bit field)" % row["field"]
        if row["operand"] != 16 or row["in"] != 2 or primary != 1:
            return None, "numpy's fp compares here are on float16 lanes into one word"
        return ("fp16", FP_RELATIONS[m]), None
    if family == "mask-logic":
        if m not in MASK_OPS or row["operand"] != 64 or row["field"] != 64 or row["in"] != 4 or primary != 2:
            return None, "outside the AND/OR/XOR mask logic numpy exposes"
        return ("mask", MASK_OPS[m]), None
    if family in NO_PRIMITIVE:
        return None, NO_PRIMITIVE[family]
    return None, "no numpy reading of the family %s" % family


def int_compare(np, how, a, b):
    (signedness, rel), lane, field = how[1], how[2], how[3]
    utype = {8: np.uint8, 16: np.uint16, 32: np.uint32}[lane]
    stype = {8: np.int8, 16: np.int16, 32: np.int32}[lane]
    x, y = a.astype(utype), b.astype(utype)
    if signedness == "signed":
        x, y = x.view(stype), y.view(stype)
    truth = {"lt": np.less, "le": np.less_equal, "eq": np.equal, "ne": np.not_equal}[rel](x, y)
    return np.where(truth, np.uint32((1 << field) - 1), np.uint32(0))


def fp16_compare(np, how, a, b):
    unordered_true, rel = how[1]
    fa = a.astype(np.uint16).view(np.float16)
    fb = b.astype(np.uint16).view(np.float16)
    unordered = np.isnan(fa) | np.isnan(fb)
    if rel is None:
        return unordered.astype(np.uint32)
    truth = {"lt": np.less, "le": np.less_equal, "eq": np.equal}[rel](fa, fb)
    return (unordered | truth if unordered_true else truth).astype(np.uint32)


def mask_logic(np, how, words):
    def vbool(lo, hi):
        return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))
    a, b = vbool(words[0], words[1]), vbool(words[2], words[3])
    r = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[how[1]](a, b)
    return [(r & np.uint64(0xFFFFFFFF)).astype(np.uint32), (r >> np.uint64(32)).astype(np.uint32)]


def evaluate(np, how, words, n, out_words):
    out = np.zeros((out_words, n), dtype=np.uint32)
    with np.errstate(all="ignore"):
        if how[0] == "int":
            out[0] = int_compare(np, how, words[0], words[1])
        elif how[0] == "fp16":
            out[0] = fp16_compare(np, how, words[0], words[1])   # an aux word stays 0
        else:
            out[0], out[1] = mask_logic(np, how, words)
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
    plans = {}   # suffix -> how to compute it, for the leaves answered YES
    while True:
        line = inp.readline()
        if not line:
            return 0
        parts = line.decode().split()
        if not parts or parts[0] == "QUIT":
            return 0
        if parts[0] == "COVERS" and len(parts) >= 2:
            row = attributes(parts[2:])
            how, reason = plan(row)
            if how is not None:
                plans[parts[1]] = (how, row["in"], row["out"])
            outp.write(b"YES\n" if how is not None else ("NO %s\n" % reason).encode())
        elif parts[0] == "EVAL" and len(parts) == 5:
            suffix = parts[1]
            n, in_words, out_words = (int(x) for x in parts[2:])
            data = read_exact(inp, 4 * n * in_words)
            if data is None:
                return 1
            known = plans.get(suffix)
            if known is None or known[1:] != (in_words, out_words):
                outp.write(("ERR %s is not expressible in numpy\n" % suffix).encode())
            else:
                words = np.frombuffer(data, dtype="<u4").reshape(in_words, n)
                result = evaluate(np, known[0], words, n, out_words)
                outp.write(b"OK\n")
                outp.write(result.astype("<u4").tobytes())
        else:
            outp.write(("ERR bad request %r\n" % line[:60]).encode())
        outp.flush()


if __name__ == "__main__":
    sys.exit(main())
