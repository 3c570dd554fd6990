# SPDX-License-Identifier: BSD-3-Clause
"""Replays a refuted q7v_ function natively: calls it through ctypes on the
counterexample's inputs, on the path $Q7PRED_VEC forces, and compares with
the value DECISIONS.md §3 and §2 give, computed here from the rules (never
from the library): lane compares (integer, fp16, fp32 with NaN unordered),
the replicated field, the _t merge.

  vec_replay.py LIB FUNCTION JSON      JSON: the prover's counterexample object
(of a call by op, q7v_do_cmp or q7v_do_cmp_t: its row by mnemonic in "row")
prints `got 0x.. expected 0x..` and exits 0 when they differ (the bug is
real), 1 when they agree, 2 on a function it has no rule for.
  vec_replay.py LIB FUNCTION random    the rules against the library on 300
random registers (lanes mixing edge values: zeros, signs, NaNs, infinities):
exit 0 when every one agrees (the rules are the library's where it is right).
"""
import ctypes
import json
import math
import re
import struct
import sys

INT = {'eq': lambda x, y: x == y, 'neq': lambda x, y: x != y, 'lt': lambda x, y: x < y,
       'le': lambda x, y: x <= y, 'ltu': lambda x, y: x < y, 'leu': lambda x, y: x <= y}
FMTS = {'2nx8': (1, False), 'nx16': (2, False), 'n_2x32': (4, False), 'nxf16': (2, True), 'n_2xf32': (4, True)}


def lanes(v, w):
    return [(v >> (8 * w * k)) & ((1 << 8 * w) - 1) for k in range(64 // w)]


def signed(x, w):
    return x - (1 << 8 * w) if x >> (8 * w - 1) else x


def fp(x, w):
    return struct.unpack('<e' if w == 2 else '<f', x.to_bytes(w, 'little'))[0]


def fp_rel(rel, a, b):
    un = math.isnan(a) or math.isnan(b)
    base = rel[1:] if rel[0] in 'ou' and rel != 'un' else rel
    if rel == 'un':
        return un
    ordered = {'eq': a == b, 'lt': a < b, 'le': a <= b}[base] if not un else False
    return un or ordered if rel[0] == 'u' else ordered


def expected(mnemonic, ins):
    m = re.fullmatch(r'(oeq|olt|ole|un|ueq|ult|ule|eq|neq|lt|le|ltu|leu)(2nx8|nx16|n_2x32|nxf16|n_2xf32)(_t)?',
                     mnemonic)
    if not m:
        return None
    rel, fmt, tail = m.groups()
    w, isfp = FMTS[fmt]
    a, b = lanes(int(ins['a'], 16), w), lanes(int(ins['b'], 16), w)
    out = 0
    for k in range(64 // w):
        if isfp:
            t = fp_rel(rel, fp(a[k], w), fp(b[k], w))
        elif rel in ('lt', 'le'):
            t = INT[rel](signed(a[k], w), signed(b[k], w))
        else:
            t = INT[rel](a[k], b[k])
        field = (1 << w) - 1 if t else 0
        if tail:
            pred, old = int(ins['pred'], 16), int(ins['old'], 16)
            if not (pred >> (w * k)) & 1:
                field = (old >> (w * k)) & ((1 << w) - 1)
        out |= field << (w * k)
    return out


EDGES = [0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3c00, 0x7f800000,
         0xff800000, 0x7fc00000, 0x7f800001, 0x3f800000, 0x80000000, 0xffffffff]


def call(L, fn, cex):
    """fn on the counterexample's registers; a call by op (q7v_do_cmp,
    q7v_do_cmp_t) with the library's own row of cex['row'] (q7v_op_find)."""
    f = getattr(L, fn)
    f.restype = ctypes.c_uint64
    vec = lambda h: ctypes.create_string_buffer(int(h, 16).to_bytes(64, 'little'), 64)
    a, b = vec(cex['a']), vec(cex['b'])
    lead, types = [], []
    if fn.startswith('q7v_do_'):
        L.q7v_op_find.restype, L.q7v_op_find.argtypes = ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_size_t]
        op = L.q7v_op_find(cex['row'].encode(), len(cex['row']))
        if not op:
            raise SystemExit('the library has no row %s' % cex['row'])
        lead, types = [op], [ctypes.c_void_p]
    if fn.endswith('_t') or cex.get('row', '').endswith('_t'):
        f.argtypes = types + [ctypes.c_uint64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64]
        return f(*lead, int(cex['old'], 16), a, b, int(cex['pred'], 16))
    f.argtypes = types + [ctypes.c_void_p, ctypes.c_void_p]
    return f(*lead, a, b)


def selftest(L, fn):
    import random
    rng = random.Random(7)
    w = [FMTS[f][0] for f in FMTS if f in fn][-1]
    for n in range(300):
        reg = lambda: sum((rng.choice(EDGES) if rng.random() < 0.5 else rng.getrandbits(8 * w)) % (1 << 8 * w)
                          << (8 * w * k) for k in range(64 // w))
        a = reg()
        b = a if n % 7 == 0 else reg()
        cex = {'a': hex(a), 'b': hex(b), 'old': hex(rng.getrandbits(64)), 'pred': hex(rng.getrandbits(64))}
        if call(L, fn, cex) != expected(fn[4:], cex):
            print('the rules and %s disagree on %s' % (fn, cex))
            return 1
    print('the rules agree with %s on 300 registers' % fn)
    return 0


def main():
    lib, fn = sys.argv[1], sys.argv[2]
    if sys.argv[3] == 'random':
        return selftest(ctypes.CDLL(lib), fn)
    cex = json.loads(sys.argv[3])
    want = expected(cex['row'] if fn.startswith('q7v_do_') else fn[4:], cex)
    if want is None:
        print('no rule for %s' % fn)
        return 2
    L = ctypes.CDLL(lib)
    got = call(L, fn, cex)
    L.q7v_path.restype = ctypes.c_char_p
    print('got %#x expected %#x on the %s path' % (got, want, L.q7v_path().decode()))
    return 0 if got != want else 1


if __name__ == '__main__':
    sys.exit(main())
