# SPDX-License-Identifier: BSD-3-Clause
"""LLVM IR -> z3: symbolic execution of one function of a clang module.

The translator knows the instructions that the library's leaves, API
functions and vector kernels compile to, and refuses anything
else (Unsupported, naming the instruction), so a proof never rests on an
instruction it guessed at. Its contract, per instruction, is LLVM 14's
LangRef semantics:

  integers  iN is a z3 bit-vector of N bits (i1 too); a vector <N x iM> is a
            Python list of N such lanes, and every vector operation works
            lane-wise;
  pointers  (object, byte offset) with the offset a concrete integer: every
            address the code computes must fold to a constant once the
            loop counters are known, else the translator refuses;
  memory    one byte map per object (each pointer argument and each
            alloca), little-endian as the module's data layout says; a load
            of a byte that no one wrote, or outside its object, is refused;
  poison    each value carries when it is poison (a broken nsw/nuw/exact
            flag, an over-wide shift, and what it is computed from; a select
            takes the poison of the arm it picks); an output byte that is
            poison, a branch on poison or a division by zero fails a proof;
  x86       the signed saturating packs packsswb/packssdw, from Intel's
            manual; every other llvm.x86.* intrinsic is refused;
  control   the path is followed block by block (phi reads the block it came
            from); a branch on a value that does not fold to a constant
            forks, and the two outcomes merge with If.

The module is checked by llvmlite (it must parse as LLVM IR) before this
reads its text.
"""
import re

import z3

from q7prove.ir.module import (ATTRS, Module, Parser, Ty, Unsupported, bits_of, field_offset,  # noqa: F401
                       size_of, tokens)
from q7prove.ir.memory import F, Memory, _or, flatten, from_bytes, to_bytes, unflatten  # noqa: F401


# ---- symbolic execution -------------------------------------------------

def _bv(v, bits):
    return z3.BitVecVal(v % (1 << bits), bits)


def _lanes(f, *xs):
    """f applied lane-wise to vector operands (lists), or once to scalars."""
    if isinstance(xs[0], list):
        return [f(*ys) for ys in zip(*xs)]
    return f(*xs)


def _ite(c, a, b):
    if isinstance(a, list):
        return [_ite(c, x, y) for x, y in zip(a, b)]
    if isinstance(a, tuple):
        if a != b:
            raise Unsupported('pointers that differ on two paths')
        return a
    return z3.simplify(z3.If(c, a, b))


_ICMP = {
    'eq': lambda a, b: a == b, 'ne': lambda a, b: a != b,
    'ult': z3.ULT, 'ule': z3.ULE, 'ugt': z3.UGT, 'uge': z3.UGE,
    'slt': lambda a, b: a < b, 'sle': lambda a, b: a <= b,
    'sgt': lambda a, b: a > b, 'sge': lambda a, b: a >= b,
}


def _b2bv(c):
    return z3.If(c, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))


def _flag_poison(op, flags, a, b, r):
    """When an instruction's result is poison (LangRef): a flag it breaks,
    or a shift by at least the width."""
    w = a.size()
    c = []
    if op in ('shl', 'lshr', 'ashr'):
        c.append(z3.UGE(b, w))
    if op == 'add':
        if 'nuw' in flags: c.append(z3.Not(z3.BVAddNoOverflow(a, b, False)))
        if 'nsw' in flags: c.append(z3.Not(z3.And(z3.BVAddNoOverflow(a, b, True), z3.BVAddNoUnderflow(a, b))))
    elif op == 'sub':
        if 'nuw' in flags: c.append(z3.ULT(a, b))
        if 'nsw' in flags: c.append(z3.Not(z3.And(z3.BVSubNoOverflow(a, b), z3.BVSubNoUnderflow(a, b, True))))
    elif op == 'mul':
        if 'nuw' in flags: c.append(mul_overflows(a, b, False))
        if 'nsw' in flags: c.append(mul_overflows(a, b, True))
    elif op == 'shl':
        if 'nuw' in flags: c.append(z3.LShR(r, b) != a)
        if 'nsw' in flags: c.append((r >> b) != a)
    elif op in ('lshr', 'ashr', 'udiv') and 'exact' in flags:
        c.append((r << b) != a if op != 'udiv' else z3.URem(a, b) != 0)
    return _or(*c)


def _constant(a, b):
    """(x, c): the operand that is not a constant and the constant's value, or None."""
    if z3.is_bv_value(a):
        a, b = b, a
    return (a, b.as_long()) if z3.is_bv_value(b) else None


def mul(a, b):
    """a * b. By a constant with few set bits (a bit transpose's delta swaps
    multiply by 129 or 16385), the sum of a shifted by each set bit: the same
    value, which bit-blasts to a few adders where z3 builds a multiplier."""
    k = _constant(a, b)
    if k is None or bin(k[1]).count('1') > 4:
        return a * b
    x, c = k
    terms = [x << i if i else x for i in range(x.size()) if c >> i & 1]
    return sum(terms[1:], terms[0]) if terms else z3.BitVecVal(0, x.size())


def mul_overflows(a, b, signed):
    """Whether a * b overflows, signed (nsw) or unsigned (nuw). By a constant
    c, a range check of the other operand (a * c fits exactly when a lies
    between the bounds below), which bit-blasts to two comparators where
    z3's overflow predicates build a double-width multiplier."""
    k = _constant(a, b)
    if k is None:
        if signed:
            return z3.Not(z3.And(z3.BVMulNoOverflow(a, b, True), z3.BVMulNoUnderflow(a, b)))
        return z3.Not(z3.BVMulNoOverflow(a, b, False))
    x, c = k
    w = x.size()
    if c == 0:
        return F
    if not signed:
        return z3.UGT(x, z3.BitVecVal(((1 << w) - 1) // c, w))
    if c >> (w - 1):
        c -= 1 << w
    lo_r, hi_r = -(1 << (w - 1)), (1 << (w - 1)) - 1

    def ceil_div(p, q):
        return -(-p // q)
    # lo_r <= x * c <= hi_r, divided by c (its sign turns the bounds round)
    lo, hi = (ceil_div(lo_r, c), hi_r // c) if c > 0 else (ceil_div(hi_r, c), lo_r // c)
    out = []
    if lo > lo_r:
        out.append(x < z3.BitVecVal(lo, w))
    if hi < hi_r:
        out.append(x > z3.BitVecVal(hi, w))
    return _or(*out)


_BINOPS = {
    'add': lambda a, b: a + b, 'sub': lambda a, b: a - b, 'mul': mul,
    'and': lambda a, b: a & b, 'or': lambda a, b: a | b, 'xor': lambda a, b: a ^ b,
    'shl': lambda a, b: a << b, 'lshr': z3.LShR, 'ashr': lambda a, b: a >> b,
    'udiv': z3.UDiv, 'urem': z3.URem,
}


# x86 signed saturating packs (Intel SDM, PACKSSWB/PACKSSDW): within each
# 128-bit lane, the first operand's elements then the second's, each
# narrowed to half its width with signed saturation.
_PACKS = {'llvm.x86.avx2.packsswb': 8, 'llvm.x86.avx2.packssdw': 16,
          'llvm.x86.sse2.packsswb.128': 8, 'llvm.x86.sse2.packssdw.128': 16}


def _packss(narrow, a, b):
    (av, ap), (bv, bp) = a, b
    wide = av[0].size()
    per = 128 // wide  # elements of one source in a 128-bit lane
    hi, lo = (1 << (narrow - 1)) - 1, -(1 << (narrow - 1))

    def sat(x):
        return z3.simplify(z3.If(x > hi, z3.BitVecVal(hi, narrow),
                                 z3.If(x < lo, z3.BitVecVal(lo % (1 << narrow), narrow),
                                       z3.Extract(narrow - 1, 0, x))))
    out, pout = [], []
    for lane in range(len(av) // per):
        for src_v, src_p in ((av, ap), (bv, bp)):
            for k in range(lane * per, lane * per + per):
                out.append(sat(src_v[k])); pout.append(src_p[k])
    return out, pout


class Executor:
    """Runs one Function on symbolic arguments.

    args: one value per parameter (a bit-vector, a list for a vector, or an
    (object, 0) pointer into `memory`); arguments are never poison. run()
    returns (return value, its poison, final memory). self.defined collects
    what must hold for the run to have no undefined behaviour (a branch on
    poison, a division by zero), each under the path condition that reaches
    it; a proof discharges them with its claim."""

    MAX_STEPS = 400000
    MAX_PATHS = 64

    def __init__(self, module, fn, args, memory):
        self.m, self.f = module, module.functions[fn]
        if len(args) != len(self.f.params):
            raise Unsupported('%s takes %d arguments' % (fn, len(self.f.params)))
        self.args = args
        self.mem0 = memory
        self.defined = []
        self.steps = 0
        self.paths = 1
        self.allocas = 0
        self.freezes = 0

    def run(self):
        env = {}
        for (name, ty), a in zip(self.f.params, self.args):
            env[name] = (a, [F] * len(a) if isinstance(a, list) else F)
        return self._block(self.f.order[0], None, env, self.mem0.copy(), [])

    def require(self, path, cond):
        self.defined.append(z3.Implies(z3.And(path), cond) if path else cond)

    # -- operands: (value, poison)
    def val(self, env, ty, v):
        tag = v[0]
        if tag == 'ref':
            if v[1] not in env:
                raise Unsupported('value %s used before it is defined' % v[1])
            return env[v[1]]
        if tag == 'const':
            if ty.kind == 'vec':
                raise Unsupported('scalar constant as a vector')
            return _bv(v[1], ty.bits), F
        if tag == 'zero':
            if ty.kind == 'int':
                return _bv(0, ty.bits), F
            if ty.kind == 'vec':
                return [_bv(0, ty.elem.bits)] * ty.n, [F] * ty.n
            raise Unsupported('zero of %r' % ty)
        if tag == 'poison':
            self.freezes += 1
            if ty.kind == 'int':
                return z3.BitVec('poison%d' % self.freezes, ty.bits), z3.BoolVal(True)
            if ty.kind == 'vec':
                return ([z3.BitVec('poison%d_%d' % (self.freezes, i), ty.elem.bits) for i in range(ty.n)],
                        [z3.BoolVal(True)] * ty.n)
            raise Unsupported('poison of %r' % ty)
        if tag == 'vec':
            lanes = [self.val(env, ty.elem, x) for x in v[1]]
            return [x for x, _ in lanes], [q for _, q in lanes]
        raise Unsupported('operand %r' % (v,))

    def concrete(self, xp, what, path):
        x, p = xp
        x = z3.simplify(x)
        if not z3.is_bv_value(x):
            raise Unsupported('%s is not a constant: %s' % (what, x))
        self.require(path, z3.Not(p))
        return x.as_long()

    # -- blocks
    def _block(self, label, prev, env, mem, path):
        entry = dict(env)  # a block's phis all read the values of the edge it came by
        for line in self.f.blocks[label]:
            self.steps += 1
            if self.steps > self.MAX_STEPS:
                raise Unsupported('more than %d steps in %s' % (self.MAX_STEPS, self.f.name))
            m = re.match(r'^(%[-\w.$]+) = (.*)$', line)
            dest, text = (m.group(1), m.group(2)) if m else (None, line)
            toks = tokens(text)
            op = toks[0]
            p = Parser(toks[1:], self.m.named)
            if op == 'br':
                if p.peek() == 'label':
                    p.take(); return self._block(p.take(), label, env, mem, path)
                ty, c = p.typed_value(); p.take(','); p.take('label'); t = p.take()
                p.take(','); p.take('label'); e = p.take()
                cv, cp = self.val(env, ty, c)
                self.require(path, z3.Not(cp))  # a branch on poison is undefined
                c = z3.simplify(cv == 1)
                if z3.is_true(c):
                    return self._block(t, label, env, mem, path)
                if z3.is_false(c):
                    return self._block(e, label, env, mem, path)
                self.paths += 1
                if self.paths > self.MAX_PATHS:
                    raise Unsupported('more than %d paths in %s' % (self.MAX_PATHS, self.f.name))
                r1 = self._block(t, label, dict(env), mem.copy(), path + [c])
                r2 = self._block(e, label, dict(env), mem.copy(), path + [z3.Not(c)])
                return self._merge(c, r1, r2)
            if op == 'ret':
                ty = p.type()
                if ty.kind == 'void':
                    return None, F, mem
                v, q = self.val(env, ty, p.value(ty))
                return v, q, mem
            if op == 'unreachable':
                raise Unsupported('unreachable reached in %s' % self.f.name)
            r = self.inst(op, p, entry if op == 'phi' else env, mem, prev, path)
            if dest:
                env[dest] = r
        raise Unsupported('block %s ends without a terminator' % label)

    def _merge(self, c, r1, r2):
        (v1, q1, m1), (v2, q2, m2) = r1, r2
        if m1.objects.keys() != m2.objects.keys():
            raise Unsupported('objects that differ on two paths')
        out = Memory()
        for k in m1.objects:
            s, b1, p1 = m1.objects[k]
            _, b2, p2 = m2.objects[k]
            if b1.keys() != b2.keys():
                raise Unsupported('bytes of %s written on one path only' % k)
            out.objects[k] = (s, {o: _ite(c, b1[o], b2[o]) for o in b1},
                              {o: _ite(c, p1[o], p2[o]) for o in b1})
        if v1 is None:
            return None, F, out
        return _ite(c, v1, v2), _ite(c, q1, q2), out

    # -- instructions: each returns (value, poison)
    def inst(self, op, p, env, mem, prev, path):
        if op in _BINOPS:
            flags = set()
            while p.peek() in ('nsw', 'nuw', 'exact'):
                flags.add(p.take())
            ty = p.type(); a, pa = self.val(env, ty, p.value(ty)); p.take(',')
            b, pb = self.val(env, ty, p.value(ty))

            def one(x, y, qx, qy):
                if op in ('udiv', 'urem'):
                    self.require(path, z3.And(z3.Not(qy), y != 0))  # division by 0 or poison is undefined
                r = z3.simplify(_BINOPS[op](x, y))
                return r, _or(qx, qy, _flag_poison(op, flags, x, y, r))
            if isinstance(a, list):
                lanes = [one(*t) for t in zip(a, b, pa, pb)]
                return [x for x, _ in lanes], [q for _, q in lanes]
            return one(a, b, pa, pb)
        if op == 'icmp':
            pred = p.take(); ty = p.type()
            a, pa = self.val(env, ty, p.value(ty)); p.take(','); b, pb = self.val(env, ty, p.value(ty))
            return (_lanes(lambda x, y: z3.simplify(_b2bv(_ICMP[pred](x, y))), a, b),
                    _lanes(lambda x, y: _or(x, y), pa, pb))
        if op == 'select':
            ct, c = p.typed_value(); c, pc = self.val(env, ct, c); p.take(',')
            ta, a = p.typed_value(); a, pa = self.val(env, ta, a); p.take(',')
            tb, b = p.typed_value(); b, pb = self.val(env, tb, b)
            if isinstance(c, list):
                return ([z3.simplify(z3.If(ci == 1, ai, bi)) for ci, ai, bi in zip(c, a, b)],
                        [_or(qc, _ite(ci == 1, qa, qb)) for ci, qc, qa, qb in zip(c, pc, pa, pb)])
            if isinstance(a, list):  # a scalar condition picks a whole vector
                return _ite(c == 1, a, b), [_or(pc, _ite(c == 1, qa, qb)) for qa, qb in zip(pa, pb)]
            return _ite(c == 1, a, b), _or(pc, _ite(c == 1, pa, pb))
        if op in ('zext', 'sext', 'trunc', 'bitcast', 'freeze'):
            ty, v = p.typed_value(); v, pv = self.val(env, ty, v)
            if op == 'freeze':  # poison becomes an arbitrary value: a fresh one
                def fr(x, q):
                    self.freezes += 1
                    return z3.simplify(z3.If(q, z3.BitVec('frozen%d' % self.freezes, x.size()), x)), F
                if isinstance(v, list):
                    lanes = [fr(x, q) for x, q in zip(v, pv)]
                    return [x for x, _ in lanes], [q for _, q in lanes]
                return fr(v, pv)
            p.take('to'); to = p.type()
            return self.cast(op, ty, to, v, pv)
        if op == 'getelementptr':
            return self.gep(p, env, path), F
        if op == 'load':
            if p.peek() == 'volatile':
                raise Unsupported('volatile load')
            ty = p.type(); p.take(','); pt, ptr = p.typed_value()
            return from_bytes(*mem.load_bytes(self.val(env, pt, ptr)[0], size_of(ty)), ty)
        if op == 'store':
            if p.peek() == 'volatile':
                raise Unsupported('volatile store')
            ty, v = p.typed_value(); v, pv = self.val(env, ty, v); p.take(',')
            pt, ptr = p.typed_value()
            mem.store_bytes(self.val(env, pt, ptr)[0], *to_bytes(v, pv, ty))
            return None, F
        if op == 'alloca':
            ty = p.type()
            self.allocas += 1
            name = 'alloca%d' % self.allocas
            mem.new(name, size_of(ty))
            return (name, 0), F
        if op == 'phi':
            ty = p.type()
            while True:
                p.take('['); v = p.value(ty); p.take(','); lab = p.take(); p.take(']')
                if lab == prev:
                    return self.val(env, ty, v)
                if p.peek() != ',':
                    raise Unsupported('phi without an entry for %s' % prev)
                p.take(',')
        if op in ('call', 'tail'):
            return self.call(p, env, mem, path)
        if op == 'extractelement':
            vt, v = p.typed_value(); v, pv = self.val(env, vt, v); p.take(',')
            it, i = p.typed_value()
            k = self.concrete(self.val(env, it, i), 'extractelement index', path)
            if k >= len(v):  # LangRef: an index past the vector gives poison
                self.freezes += 1
                return z3.BitVec('poison%d' % self.freezes, vt.elem.bits), z3.BoolVal(True)
            return v[k], pv[k]
        if op == 'insertelement':
            vt, v = p.typed_value(); v, pv = self.val(env, vt, v); v, pv = list(v), list(pv); p.take(',')
            et, e = p.typed_value(); p.take(','); it, i = p.typed_value()
            k = self.concrete(self.val(env, it, i), 'insertelement index', path)
            if k >= len(v):
                raise Unsupported('insertelement past the vector')
            v[k], pv[k] = self.val(env, et, e)
            return v, pv
        if op == 'shufflevector':
            at, a = p.typed_value(); a, pa = self.val(env, at, a); p.take(',')
            bt, b = p.typed_value(); p.take(',')
            b, pb = self.val(env, bt, b)
            mt = p.type()
            if p.peek() == 'zeroinitializer':
                p.take(); mask = [0] * mt.n
            else:
                mask = []
                p.take('<')
                while True:
                    p.type(); tok = p.take()
                    mask.append(None if tok in ('undef', 'poison') else int(tok))  # a poison lane
                    if p.take() == '>':
                        break
            both, bothp = a + b, pa + pb
            out, pout = [], []
            for k in mask:
                if k is None:
                    self.freezes += 1
                    out.append(z3.BitVec('poison%d' % self.freezes, at.elem.bits)); pout.append(z3.BoolVal(True))
                else:
                    out.append(both[k]); pout.append(bothp[k])
            return out, pout
        raise Unsupported('instruction %r' % op)

    def cast(self, op, ty, to, v, pv):
        if ty.kind == 'ptr' and to.kind == 'ptr' and op == 'bitcast':
            return v, pv
        if op == 'bitcast':
            if ty.kind == 'ptr' or to.kind == 'ptr' or bits_of(ty) != bits_of(to):
                raise Unsupported('bitcast %r to %r' % (ty, to))
            any_p = _or(*pv) if isinstance(pv, list) else pv
            out = unflatten(flatten(v, ty), to)
            return out, ([any_p] * to.n if to.kind == 'vec' else any_p)
        src = ty.elem.bits if ty.kind == 'vec' else ty.bits
        dst = to.elem.bits if to.kind == 'vec' else to.bits

        def one(x):
            if op == 'zext': return z3.simplify(z3.ZeroExt(dst - src, x))
            if op == 'sext': return z3.simplify(z3.SignExt(dst - src, x))
            return z3.simplify(z3.Extract(dst - 1, 0, x))
        return _lanes(one, v), pv

    def gep(self, p, env, path):
        while p.peek() == 'inbounds':
            p.take()
        ty = p.type(); p.take(',')
        pt, base = p.typed_value(); obj, off = self.val(env, pt, base)[0]
        first, cur = True, ty
        while p.peek() == ',':
            p.take()
            it, iv = p.typed_value()
            idx = self.concrete(self.val(env, it, iv), 'an address index', path)
            if idx >= 1 << (it.bits - 1):
                idx -= 1 << it.bits
            if first:
                off += idx * size_of(ty); first = False
            elif cur.kind in ('arr', 'vec'):
                cur = cur.elem; off += idx * size_of(cur)
            elif cur.kind == 'struct':
                off += field_offset(cur, idx); cur = cur.fields[idx]
            else:
                raise Unsupported('getelementptr into %r' % cur)
        return (obj, off)

    def call(self, p, env, mem, path):
        while p.peek() in ATTRS or p.peek() == 'call':
            p.take()
        p.type(); fn = p.take()
        args = []
        p.take('(')
        while p.peek() != ')':
            t, v = p.typed_value()
            args.append(self.val(env, t, v))
            if p.peek() == ',':
                p.take()
        name = fn[1:]
        if name.startswith('llvm.lifetime.'):
            return None, F
        if name.startswith(('llvm.memcpy.', 'llvm.memmove.', 'llvm.memset.')):
            n = self.concrete(args[2], name + ' length', path)
            if name.startswith('llvm.memset.'):
                mem.store_bytes(args[0][0], [args[1][0]] * n, [args[1][1]] * n)
            else:
                mem.store_bytes(args[0][0], *mem.load_bytes(args[1][0], n))
            return None, F
        for red, f in (('or', lambda x, y: x | y), ('and', lambda x, y: x & y),
                       ('xor', lambda x, y: x ^ y), ('add', lambda x, y: x + y)):
            if name.startswith('llvm.vector.reduce.%s.' % red):
                lanes, pois = args[0]
                acc = lanes[0]
                for x in lanes[1:]:
                    acc = f(acc, x)
                return z3.simplify(acc), _or(*pois)
        for mm, f in (('umin', lambda x, y: z3.If(z3.ULT(x, y), x, y)), ('umax', lambda x, y: z3.If(z3.UGT(x, y), x, y)),
                      ('smin', lambda x, y: z3.If(x < y, x, y)), ('smax', lambda x, y: z3.If(x > y, x, y))):
            if name.startswith('llvm.%s.' % mm):
                return (_lanes(lambda x, y: z3.simplify(f(x, y)), args[0][0], args[1][0]),
                        _lanes(lambda x, y: _or(x, y), args[0][1], args[1][1]))
        if name.startswith(('llvm.fshl.', 'llvm.fshr.')):
            def fsh(a, b, s):
                w = a.size(); s = z3.URem(s, w); both = z3.Concat(a, b)
                if name.startswith('llvm.fshl.'):
                    return z3.simplify(z3.Extract(2 * w - 1, w, both << z3.ZeroExt(w, s)))
                return z3.simplify(z3.Extract(w - 1, 0, z3.LShR(both, z3.ZeroExt(w, s))))
            return (_lanes(fsh, args[0][0], args[1][0], args[2][0]),
                    _lanes(lambda x, y, z: _or(x, y, z), args[0][1], args[1][1], args[2][1]))
        if name in _PACKS:
            return _packss(_PACKS[name], args[0], args[1])
        raise Unsupported('call to %s' % name)
