# SPDX-License-Identifier: BSD-3-Clause
"""The BMI1 and BMI2 instructions (VEX-encoded general-register
operations), after the Intel SDM volume 2:

  BMI1   andn bextr blsi blsmsk blsr (tzcnt is with bsf in integer.py)
  BMI2   bzhi pdep pext rorx sarx shlx shrx mulx

Operands in capstone's Intel order: andn d, vvvv, r/m; bextr and bzhi d,
r/m, vvvv; pdep and pext d, vvvv, r/m; sarx shlx shrx d, r/m, vvvv; rorx d,
r/m, imm8; mulx high, low, r/m (the other factor is rdx/edx). A 32-bit
destination is zero-extended as every 32-bit write is. The flags the SDM
leaves undefined are Undef; the BMI2 instructions change no flag.
"""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.state import as_number


def _src(m, op, w):
    return as_number(m.get(op), w)


def _msb(x, w):
    return bv.bit(x, w - 1, w)


def andn(m, i):
    d, a, b = i.ops
    w = 8 * d.size
    r = bv.and_(bv.not_(_src(m, a, w), w), _src(m, b, w), w)
    m.set_flags(CF=False, OF=False, ZF=bv.eq(r, 0, w), SF=_msb(r, w))
    m.undefine('AF', 'PF')
    m.put(d, r)


def bextr(m, i):
    """Bits start .. start+len-1 of the source (start = vvvv[7:0], len =
    vvvv[15:8]); bits past the operand read 0."""
    d, s, c = i.ops
    w = 8 * d.size
    x, ctl = _src(m, s, w), _src(m, c, w)
    start = bv.fold(bv.extract(ctl, 7, 0, w))
    length = bv.fold(bv.extract(ctl, 15, 8, w))
    if type(start) is int and type(length) is int:
        shifted = bv.lshr(x, start, w) if start < w else 0
        r = shifted if length >= w else bv.and_(shifted, bv.mask(length), w)
    else:
        wide = 512                       # start and length reach 255: shift 255 + 255 bits in a wide word
        xs = bv.term(bv.zext(x, w, wide), wide)
        st = z3.ZeroExt(wide - 8, bv.term(start, 8))
        ln = z3.ZeroExt(wide - 8, bv.term(length, 8))
        field = z3.LShR(xs, st) & ((z3.BitVecVal(1, wide) << ln) - 1)
        r = bv.fold(z3.Extract(w - 1, 0, field))
    m.set_flags(ZF=bv.eq(r, 0, w), CF=False, OF=False)
    m.undefine('AF', 'SF', 'PF')
    m.put(d, r)


def _blsx(kind):
    def op(m, i):
        d, s = i.ops
        w = 8 * d.size
        x = _src(m, s, w)
        zero = bv.eq(x, 0, w)
        if kind == 'blsi':
            r = bv.and_(bv.neg(x, w), x, w)
            m.set_flags(ZF=bv.eq(r, 0, w), SF=_msb(r, w), CF=bv.bnot(zero), OF=False)
        elif kind == 'blsmsk':
            r = bv.xor(bv.sub(x, 1, w), x, w)
            m.set_flags(ZF=False, SF=_msb(r, w), CF=zero, OF=False)
        else:
            r = bv.and_(bv.sub(x, 1, w), x, w)
            m.set_flags(ZF=bv.eq(r, 0, w), SF=_msb(r, w), CF=zero, OF=False)
        m.undefine('AF', 'PF')
        m.put(d, r)
    return op


def bzhi(m, i):
    """The source with bits n and up cleared (n = vvvv[7:0]); CF when n
    is past the operand's last bit."""
    d, s, c = i.ops
    w = 8 * d.size
    x = _src(m, s, w)
    n = bv.fold(bv.extract(_src(m, c, w), 7, 0, w))
    if type(n) is int:
        r = x if n >= w else bv.and_(x, bv.mask(n), w)
        big = n >= w
    else:
        nw = bv.zext(n, 8, w) if w > 8 else n
        big = z3.UGE(bv.term(n, 8), w)
        r = z3.If(big, bv.term(x, w), bv.term(x, w) & ((z3.BitVecVal(1, w) << bv.term(nw, w)) - 1))
    m.set_flags(ZF=bv.eq(r, 0, w), SF=_msb(r, w), CF=big, OF=False)
    m.undefine('AF', 'PF')
    m.put(d, r)


def _popcount_below(mk, w):
    """[count of set bits of mk below bit i, as a w-bit term or int] for i in 0..w."""
    out, k = [], 0
    for b in range(w):
        out.append(k)
        k = bv.add(k, bv.zext(bv.extract(mk, b, b, w), 1, w) if type(mk) is not int else (mk >> b) & 1, w)
    return out


def pdep(m, i):
    """Bit j of the source goes to the j-th set bit of the mask."""
    d, a, b = i.ops
    w = 8 * d.size
    x, mk = _src(m, a, w), _src(m, b, w)
    below = _popcount_below(mk, w)
    bits = []
    for p in range(w):
        src_bit = bv.extract(bv.lshr(x, below[p], w), 0, 0, w)
        bits.append(bv.ite(bv.bit(mk, p, w), src_bit, 0, 1))
    m.put(d, bv.concat([(v, 1) for v in reversed(bits)]))


def pext(m, i):
    """The source's bits where the mask is set, packed from bit 0 up."""
    d, a, b = i.ops
    w = 8 * d.size
    x, mk = _src(m, a, w), _src(m, b, w)
    below = _popcount_below(mk, w)
    r = 0
    for p in range(w):
        moved = bv.shl(bv.zext(bv.extract(x, p, p, w), 1, w), below[p], w)
        r = bv.or_(r, bv.ite(bv.bit(mk, p, w), moved, 0, w), w)
    m.put(d, r)


def rorx(m, i):
    d, s, c = i.ops
    w = 8 * d.size
    x = _src(m, s, w)
    n = c.imm & (w - 1)
    m.put(d, x if n == 0 else bv.or_(bv.lshr(x, n, w), bv.shl(x, w - n, w), w))


def _shiftx(kind):
    def op(m, i):
        d, s, c = i.ops
        w = 8 * d.size
        x = _src(m, s, w)
        n = bv.fold(bv.and_(_src(m, c, w), w - 1, w))
        m.put(d, {'shlx': bv.shl, 'shrx': bv.lshr, 'sarx': bv.ashr}[kind](x, n, w))
    return op


def mulx(m, i):
    """high:low = rdx * r/m (unsigned); the low half is written first, so
    when both destinations are one register it holds the high half."""
    hi, lo, s = i.ops
    w = 8 * hi.size
    a = as_number(m.s.reg('rdx' if w == 64 else 'edx'), w)
    p = bv.mul(bv.zext(a, w, 2 * w), bv.zext(_src(m, s, w), w, 2 * w), 2 * w)
    m.put(lo, bv.extract(p, w - 1, 0, 2 * w))
    m.put(hi, bv.extract(p, 2 * w - 1, w, 2 * w))


# ---- registration: mnemonic -> model
MODELS = {
    'andn': andn, 'bextr': bextr, 'blsi': _blsx('blsi'), 'blsmsk': _blsx('blsmsk'), 'blsr': _blsx('blsr'),
    'bzhi': bzhi, 'pdep': pdep, 'pext': pext, 'rorx': rorx,
    'sarx': _shiftx('sarx'), 'shlx': _shiftx('shlx'), 'shrx': _shiftx('shrx'), 'mulx': mulx,
}
