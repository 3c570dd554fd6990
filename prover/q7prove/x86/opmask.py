# SPDX-License-Identifier: BSD-3-Clause
"""The opmask instructions of AVX-512 (VEX-encoded, decoded by
x86/evex.py), after the Intel SDM volume 2: kand kandn kor kxor kxnor kadd
knot kmov kortest ktest kshiftl kshiftr (b w d q) and kunpckbw/wd/dq. Each
works on the low 8, 16, 32 or 64 bits of k0..k7 and leaves the rest of
its destination 0 (kmov into a general register: zero-extended); a shift
by a count past the width gives 0; kortest and ktest set ZF and CF and
clear OF SF AF PF. Their models join x86/avx512.py's table.
"""
from q7prove.smt import bitvec as bv
from q7prove.machine.state import as_number

KBITS = {'b': 8, 'w': 16, 'd': 32, 'q': 64}


def _kbits(m, op, n):
    """The low n bits of an opmask register (or memory, or a general register)."""
    w = 64 if op.kind == 'reg' and op.reg.startswith('k') else 8 * op.size
    return bv.extract(as_number(m.get(op), w), n - 1, 0, w)


def klogic(fn):
    def op(m, i):
        n = KBITS[i.mnemonic[-1]]
        d, a, b = i.ops
        m.put(d, bv.zext(fn(_kbits(m, a, n), _kbits(m, b, n), n), n, 64))
    return op


def knot(m, i):
    n = KBITS[i.mnemonic[-1]]
    d, a = i.ops
    m.put(d, bv.zext(bv.not_(_kbits(m, a, n), n), n, 64))


def kmov(m, i):
    n = KBITS[i.mnemonic[-1]]
    d, s = i.ops
    if s.kind == 'mem':
        v = m.get(s)
    elif s.reg.startswith('k'):
        v = bv.extract(m.get(s), n - 1, 0, 64)
    else:
        v = bv.extract(as_number(m.get(s), 8 * s.size), n - 1, 0, 8 * s.size)
    if d.kind == 'mem':
        m.put(d, v)
    elif d.reg.startswith('k'):
        m.put(d, bv.zext(v, n, 64))
    else:
        m.put(d, bv.zext(v, n, 8 * d.size))


def ktest(kind):
    def op(m, i):
        n = KBITS[i.mnemonic[-1]]
        a, b = _kbits(m, i.ops[0], n), _kbits(m, i.ops[1], n)
        if kind == 'or':
            r = bv.or_(a, b, n)
            m.set_flags(ZF=bv.eq(r, 0, n), CF=bv.eq(r, bv.mask(n), n))
        else:
            m.set_flags(ZF=bv.eq(bv.and_(a, b, n), 0, n), CF=bv.eq(bv.and_(bv.not_(a, n), b, n), 0, n))
        m.set_flags(OF=False, SF=False, AF=False, PF=False)
    return op


def kshift(left):
    def op(m, i):
        n = KBITS[i.mnemonic[-1]]
        d, a, c = i.ops
        x = _kbits(m, a, n)
        cnt = c.imm & 0xff
        r = 0 if cnt >= n else (bv.shl if left else bv.lshr)(x, cnt, n)
        m.put(d, bv.zext(r, n, 64))
    return op


def kunpck(m, i):
    """kunpckbw/wd/dq: the low halves, the second source's below the first's."""
    n = {'bw': 8, 'wd': 16, 'dq': 32}[i.mnemonic[-2:]]
    d, a, b = i.ops
    m.put(d, bv.zext(bv.concat([(_kbits(m, a, n), n), (_kbits(m, b, n), n)]), 2 * n, 64))


# ---- registration: mnemonic -> model
MODELS = {}
for _s in 'bwdq':
    MODELS['kand' + _s] = klogic(bv.and_)
    MODELS['kandn' + _s] = klogic(lambda a, b, n: bv.and_(bv.not_(a, n), b, n))
    MODELS['kor' + _s] = klogic(bv.or_)
    MODELS['kxor' + _s] = klogic(bv.xor)
    MODELS['kxnor' + _s] = klogic(lambda a, b, n: bv.not_(bv.xor(a, b, n), n))
    MODELS['kadd' + _s] = klogic(bv.add)
    MODELS['knot' + _s] = knot
    MODELS['kmov' + _s] = kmov
    MODELS['kortest' + _s] = ktest('or')
    MODELS['ktest' + _s] = ktest('and')
    MODELS['kshiftl' + _s] = kshift(True)
    MODELS['kshiftr' + _s] = kshift(False)
MODELS['kunpckbw'] = MODELS['kunpckwd'] = MODELS['kunpckdq'] = kunpck
