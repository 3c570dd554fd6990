# SPDX-License-Identifier: BSD-3-Clause
"""The translator's memory (ir/to_z3.py): one byte map per object, each
byte a z3 bit-vector of 8 bits with its poison, little-endian; values of
integer and integer-vector types to and from their bytes."""
import z3

from q7prove.ir.module import Ty, Unsupported, bits_of, size_of

F = z3.BoolVal(False)


def _or(*cs):
    cs = [c for c in cs if not z3.is_false(c)]
    return F if not cs else z3.simplify(cs[0] if len(cs) == 1 else z3.Or(*cs))


class Memory:
    """Byte maps of the objects: objects[name] = (size, {offset: BitVec(8)},
    {offset: poison Bool})."""

    def __init__(self):
        self.objects = {}

    def copy(self):
        m = Memory()
        m.objects = {k: (s, dict(b), dict(p)) for k, (s, b, p) in self.objects.items()}
        return m

    def new(self, name, size, init=None):
        init = dict(init or {})
        self.objects[name] = (size, init, {o: F for o in init})

    def _span(self, ptr, n, what):
        obj, off = ptr
        size = self.objects[obj][0]
        if off < 0 or off + n > size:
            raise Unsupported('%s outside %s at %d+%d' % (what, obj, off, n))
        return self.objects[obj]

    def store_bytes(self, ptr, byts, pois):
        _, b, p = self._span(ptr, len(byts), 'store')
        for i, (x, q) in enumerate(zip(byts, pois)):
            b[ptr[1] + i], p[ptr[1] + i] = x, q

    def load_bytes(self, ptr, n):
        _, b, p = self._span(ptr, n, 'load')
        try:
            return [b[ptr[1] + i] for i in range(n)], [p[ptr[1] + i] for i in range(n)]
        except KeyError:
            raise Unsupported('load of a byte of %s that nothing wrote' % ptr[0]) from None

    def word(self, obj, off, nbytes):
        """(the little-endian value, whether any of its bytes is poison)."""
        byts, pois = self.load_bytes((obj, off), nbytes)
        v = byts[0] if nbytes == 1 else z3.Concat(*reversed(byts))
        return z3.simplify(v), _or(*pois)


def to_bytes(v, p, ty):
    if ty.kind == 'int':
        if ty.bits % 8:  # LangRef leaves the spare bits unspecified: not modelled
            raise Unsupported('store of i%d (not a whole number of bytes)' % ty.bits)
        n = size_of(ty)
        return [z3.simplify(z3.Extract(8 * i + 7, 8 * i, v)) for i in range(n)], [p] * n
    if ty.kind == 'vec' and ty.elem.kind == 'int' and ty.elem.bits % 8 == 0:
        out, pout = [], []
        for lane, q in zip(v, p):
            b, bp = to_bytes(lane, q, ty.elem)
            out += b; pout += bp
        return out, pout
    if ty.kind == 'vec' and ty.elem.kind == 'int':
        return to_bytes(flatten(v, ty), _or(*p), Ty('int', bits=bits_of(ty)))
    raise Unsupported('store of %r' % ty)


def from_bytes(byts, pois, ty):
    if ty.kind == 'int':
        v = byts[0] if len(byts) == 1 else z3.Concat(*reversed(byts))
        v = z3.Extract(ty.bits - 1, 0, v) if ty.bits % 8 else v
        return z3.simplify(v), _or(*pois)
    if ty.kind == 'vec' and ty.elem.kind == 'int' and ty.elem.bits % 8 == 0:
        s = size_of(ty.elem)
        lanes = [from_bytes(byts[i * s:(i + 1) * s], pois[i * s:(i + 1) * s], ty.elem) for i in range(ty.n)]
        return [x for x, _ in lanes], [q for _, q in lanes]
    if ty.kind == 'vec' and ty.elem.kind == 'int':
        v, q = from_bytes(byts, pois, Ty('int', bits=bits_of(ty)))
        return unflatten(v, ty), [q] * ty.n
    raise Unsupported('load of %r' % ty)


def flatten(v, ty):
    """A value of an integer or integer-vector type as one bit-vector (lane 0 low)."""
    if ty.kind == 'int':
        return v
    return z3.simplify(z3.Concat(*reversed(v)))


def unflatten(v, ty):
    if ty.kind == 'int':
        return v
    w = ty.elem.bits
    return [z3.simplify(z3.Extract(w * i + w - 1, w * i, v)) for i in range(ty.n)]
