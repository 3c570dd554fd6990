# SPDX-License-Identifier: BSD-3-Clause
"""Integer instruction models (Intel SDM vol. 2, AMD APM vol. 3): moves,
the ALU, multiply and divide, shifts and rotates, bit tests and scans.
Which encodings run which function is x86/table.py's."""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.state import GPRS, REGS, Lazy, Undef, as_number
from q7prove.machine.memory import External, Ptr
from q7prove.x86.semantics import add_flags, logic_flags, msb, opcode_condition, result_flags, sub_flags


# ---- moves ---------------------------------------------------------------

def mov(m, i):
    d, s = i.ops
    v = m.get(s)
    if s.kind == 'imm' and d.size == 8:
        v = s.imm & bv.mask(64)    # a 32-bit immediate sign-extended to 64 bits
    m.put(d, v)


def movzx(m, i):
    d, s = i.ops
    m.put(d, bv.zext(m.get(s), 8 * s.size, 8 * d.size))


def movsx(m, i):
    d, s = i.ops
    m.put(d, bv.sext(as_number(m.get(s), 8 * s.size), 8 * s.size, 8 * d.size))


def widen_accumulator(m, i):
    w = {'cbw': 8, 'cwde': 16, 'cdqe': 32}[i.mnemonic]
    src = {8: 'al', 16: 'ax', 32: 'eax'}[w]
    dst = {8: 'ax', 16: 'eax', 32: 'rax'}[w]
    m.s.set_reg(dst, bv.sext(m.s.reg(src), w, 2 * w))


def sign_into_rdx(m, i):
    w = {'cwd': 16, 'cdq': 32, 'cqo': 64}[i.mnemonic]
    a, d = {16: ('ax', 'dx'), 32: ('eax', 'edx'), 64: ('rax', 'rdx')}[w]
    m.s.set_reg(d, bv.ite(msb(as_number(m.s.reg(a), w), w), bv.mask(w), 0, w))


def lea(m, i):
    d, s = i.ops
    a = m.ea(s)
    m.put(d, a if d.size == 8 else bv.extract(as_number(a), 8 * d.size - 1, 0, 64))


def xchg(m, i):
    a, b = i.ops
    va, vb = m.get(a), m.get(b)
    m.put(a, vb)
    m.put(b, va)


def bswap(m, i):
    d = i.ops[0]
    w = 8 * d.size
    if w == 16:
        m.refuse('bswap of a 16-bit register (the manuals leave its result undefined)')
    v = as_number(m.get(d), w)
    m.put(d, bv.concat([(bv.extract(v, 8 * k + 7, 8 * k, w), 8) for k in range(w // 8)]))


def cmov(m, i):
    d, s = i.ops
    v = m.get(s)            # a memory source is read (and may fault) whatever the condition
    c = opcode_condition(m, i)
    old = m.get(d)
    w = 8 * d.size
    if type(c) is bool:
        pick = v if c else old
    else:
        pick = bv.ite(c, as_number(v, w), as_number(old, w), w)
    m.put(d, pick)          # a 32-bit destination is zero-extended either way


def setcc(m, i):
    m.put(i.ops[0], bv.from_bool(opcode_condition(m, i), 8))


def push(m, i):
    s = i.ops[0]
    v = m.get(s)
    if s.kind == 'imm':
        v = s.imm & bv.mask(64)
    m.push(v, 8 if s.size in (1, 4, 8) else s.size)


def pop(m, i):
    d = i.ops[0]
    v = m.pop(d.size)
    m.put(d, v)


def leave(m, i):
    m.s.set_reg('rsp', m.s.reg('rbp'))
    m.s.set_reg('rbp', m.pop(8))


# ---- integer ALU -----------------------------------------------------------

def _binary(m, i):
    d, s = i.ops
    w = 8 * d.size
    a = m.get(d)
    b = s.imm & bv.mask(w) if s.kind == 'imm' else m.get(s)
    return d, w, a, b


def _off(p):
    return bv.term(p.off & bv.mask(64), 64) if type(p.off) is int else p.off


def add(m, i):
    d, w, a, b = _binary(m, i)
    carry = bv.from_bool(m.flag('CF')) if i.mnemonic == 'adc' else 0
    an, bn = as_number(a, w), as_number(b, w)
    r = bv.add(bv.add(an, bn, w), bv.zext(carry, 1, w), w)
    add_flags(m, an, bn, carry, r, w)
    if w == 64 and carry == 0 and isinstance(a, Ptr) != isinstance(b, Ptr):
        r = m.offset(a, b)          # pointer arithmetic keeps its object; the flags are the numbers'
    m.put(d, r)


def sub(m, i):
    d, w, a, b = _binary(m, i)
    borrow = bv.from_bool(m.flag('CF')) if i.mnemonic == 'sbb' else 0
    if w == 64 and borrow == 0 and isinstance(a, Ptr) and isinstance(b, Ptr) and a.obj is b.obj:
        # two addresses of one object, which does not wrap: the difference
        # and the order are the offsets'
        if type(a.off) is int and type(b.off) is int:
            r, below = (a.off - b.off) & bv.mask(64), a.off < b.off
        else:
            r, below = bv.sub(_off(a), _off(b), 64), bv.slt(_off(a), _off(b), 64)
        m.set_flags(CF=below, OF=False, AF=Lazy(lambda: bv.bit(r, 4, 64)))
        result_flags(m, r, 64)
    else:
        an, bn = as_number(a, w), as_number(b, w)
        r = bv.sub(bv.sub(an, bn, w), bv.zext(borrow, 1, w), w)
        sub_flags(m, an, bn, borrow, r, w)
        if w == 64 and borrow == 0 and isinstance(a, Ptr) and not isinstance(b, (Ptr, External)):
            r = m.offset(a, bv.neg(bn, 64))
    if i.mnemonic != 'cmp':
        m.put(d, r)


def logic(m, i):
    d, w, a, b = _binary(m, i)
    if d.kind == 'reg' and d.reg == 'rsp' and i.mnemonic == 'and' and isinstance(a, Ptr):
        return _align_stack(m, i, b)
    if i.mnemonic == 'xor' and i.ops[1].kind == 'reg' and d.kind == 'reg' and d.reg == i.ops[1].reg:
        r = 0                                            # the zeroing idiom, whatever the register held
    else:
        a, b = as_number(a, w), as_number(b, w)
        r = {'and': bv.and_, 'test': bv.and_, 'or': bv.or_, 'xor': bv.xor}[i.mnemonic](a, b, w)
    logic_flags(m, r, w)
    if i.mnemonic != 'test':
        m.put(d, r)


def _align_stack(m, i, b):
    """and rsp, -2^k: exact on the stack object. Up to the 16 bytes the ABI
    aligns it to, the new offset is known; for 32 to 4096 bytes it depends
    on the stack's place, so the path splits into one per place of the
    entry %rsp modulo 2^k (it is 8 modulo 16), each with its own offset."""
    sp = m.s.reg('rsp')
    align = (-bv.signed(b, 64)) if type(b) is int else 0
    if type(sp.off) is not int or align & (align - 1) or not 1 <= align <= 4096:
        m.refuse('realigns the stack to a mask that is not -2^k for 2^k up to 4096')
    r = bv.and_(as_number(sp), b, 64)
    logic_flags(m, r, 64)
    if align <= 16:
        m.s.set_reg('rsp', Ptr(sp.obj, sp.off - ((sp.off + 8) % align)))   # entry %rsp is 8 mod 16
        return
    low = z3.Extract(align.bit_length() - 2, 0, sp.obj.base)
    places = [(low == p, Ptr(sp.obj, sp.off - ((p + sp.off) % align))) for p in range(8, align, 16)]
    for cond, new in places[1:]:
        t = m.s.copy()
        t.cond = t.cond + (cond,)
        t.set_reg('rsp', new)
        t.pc = m.next
        m.exe.also(t)
    m.s.cond = m.s.cond + (places[0][0],)
    m.s.set_reg('rsp', places[0][1])


def neg(m, i):
    d = i.ops[0]
    w = 8 * d.size
    a = as_number(m.get(d), w)
    r = bv.neg(a, w)
    sub_flags(m, 0, a, 0, r, w)
    m.put(d, r)


def not_(m, i):
    d = i.ops[0]
    w = 8 * d.size
    m.put(d, bv.not_(as_number(m.get(d), w), w))


def incdec(m, i):
    d = i.ops[0]
    w = 8 * d.size
    a = as_number(m.get(d), w)
    cf = m.s.flags['CF']
    if i.mnemonic == 'inc':
        r = bv.add(a, 1, w)
        add_flags(m, a, 1, 0, r, w)
    else:
        r = bv.sub(a, 1, w)
        sub_flags(m, a, 1, 0, r, w)
    m.s.flags['CF'] = cf
    m.put(d, r)


# ---- multiply and divide ---------------------------------------------------

ACC = {8: ('al', 'ah', 'ax'), 16: ('ax', 'dx', None), 32: ('eax', 'edx', None), 64: ('rax', 'rdx', None)}


def mul(m, i):
    signed = i.mnemonic == 'imul'
    ext = bv.sext if signed else bv.zext
    if len(i.ops) == 1:
        s = i.ops[0]
        w = 8 * s.size
        lo_reg, hi_reg, whole = ACC[w]
        a, b = as_number(m.s.reg(lo_reg), w), as_number(m.get(s), w)
        p = bv.mul(ext(a, w, 2 * w), ext(b, w, 2 * w), 2 * w)
        lo, hi = bv.extract(p, w - 1, 0, 2 * w), bv.extract(p, 2 * w - 1, w, 2 * w)
        if whole:
            m.s.set_reg(whole, p)
        else:
            m.s.set_reg(lo_reg, lo)
            m.s.set_reg(hi_reg, hi)
    else:
        d = i.ops[0]
        w = 8 * d.size
        srcs = i.ops[1:]
        a = as_number(m.get(srcs[0]), w) if len(srcs) == 2 else as_number(m.get(d), w)
        bop = srcs[-1]
        b = bop.imm & bv.mask(w) if bop.kind == 'imm' else as_number(m.get(bop), w)
        p = bv.mul(ext(a, w, 2 * w), ext(b, w, 2 * w), 2 * w)
        lo = bv.extract(p, w - 1, 0, 2 * w)
        m.put(d, lo)
    # CF = OF: the full product does not fit the low half (as a signed or unsigned number)
    fits = bv.eq(p, ext(lo, w, 2 * w), 2 * w)
    m.set_flags(CF=bv.bnot(fits), OF=bv.bnot(fits))
    m.undefine('SF', 'ZF', 'AF', 'PF')


def div(m, i):
    signed = i.mnemonic == 'idiv'
    s = i.ops[0]
    w = 8 * s.size
    lo_reg, hi_reg, whole = ACC[w]
    if whole:
        n = as_number(m.s.reg(whole), 2 * w)
    else:
        n = bv.concat([(as_number(m.s.reg(hi_reg), w), w), (as_number(m.s.reg(lo_reg), w), w)])
    dv = as_number(m.get(s), w)
    zero = bv.eq(dv, 0, w)
    m.violation('divides by zero', zero)
    if not signed and not whole and bv.fold(as_number(m.s.reg(hi_reg), w)) == 0:
        # the dividend's upper half is 0 (xor %edx,%edx): the same quotient
        # and remainder at w bits, which the solvers find far easier; the
        # quotient always fits
        lo = as_number(m.s.reg(lo_reg), w)
        m.s.set_reg(lo_reg, bv.udiv(lo, dv, w))
        m.s.set_reg(hi_reg, bv.urem(lo, dv, w))
        m.undefine('CF', 'OF', 'SF', 'ZF', 'AF', 'PF')
        return
    d2 = (bv.sext if signed else bv.zext)(dv, w, 2 * w)
    q = (bv.sdiv if signed else bv.udiv)(n, d2, 2 * w)
    r = (bv.srem if signed else bv.urem)(n, d2, 2 * w)
    q_lo = bv.extract(q, w - 1, 0, 2 * w)
    fits = bv.eq(q, (bv.sext if signed else bv.zext)(q_lo, w, 2 * w), 2 * w)
    m.violation('divides with a quotient that does not fit (#DE)', bv.band(bv.bnot(zero), bv.bnot(fits)))
    rem = bv.extract(r, w - 1, 0, 2 * w)
    if whole:
        m.s.set_reg('al', q_lo)
        m.s.set_reg('ah', rem)
    else:
        m.s.set_reg(lo_reg, q_lo)
        m.s.set_reg(hi_reg, rem)
    m.undefine('CF', 'OF', 'SF', 'ZF', 'AF', 'PF')


# ---- shifts and rotates ------------------------------------------------------

def _count(m, i, w):
    """The shift count, masked as the manual masks it, and whether it was given."""
    c = i.ops[-1] if len(i.ops) > 1 else None
    if c is None:
        raw = 1
    elif c.kind == 'imm':
        raw = c.imm & 0xff
    else:
        raw = as_number(m.get(c), 8)
    return bv.and_(bv.fold(raw) if not bv.known(raw) else raw, 0x3f if w == 64 else 0x1f, 8)


def _keep_if_zero(m, count, new):
    """Flags set by a shift or rotate: unchanged where the masked count is 0."""
    if type(count) is int:
        if count:
            m.set_flags(**new)
        return
    zero = bv.eq(count, 0, 8)
    for k, nv in new.items():
        old = m.s.flags[k]
        old = old.get() if type(old) is Lazy else old
        nv = nv.get() if type(nv) is Lazy else nv
        m.s.flags[k] = nv if type(nv) is Undef else old if type(old) is Undef else bv.bite(zero, old, nv)


def shift(m, i):
    d = i.ops[0]
    w = 8 * d.size
    a = as_number(m.get(d), w)
    c = _count(m, i, w)
    kind = i.mnemonic
    cw = bv.zext(c, 8, w) if w > 8 else c
    if kind in ('shl', 'sal'):
        r = bv.shl(a, cw, w)
        cf = lambda: bv.bit(bv.lshr(a, bv.sub(w, cw, w), w), 0, w)   # the last bit out: bit w - c
        of = lambda: bv.bxor(msb(r, w), bv.bit(bv.lshr(a, bv.sub(w, cw, w), w), 0, w))
    elif kind == 'shr':
        r = bv.lshr(a, cw, w)
        cf = lambda: bv.bit(bv.lshr(a, bv.sub(cw, 1, w), w), 0, w)
        of = lambda: msb(a, w)
    else:
        r = bv.ashr(a, cw, w)
        cf = lambda: bv.bit(bv.ashr(a, bv.sub(cw, 1, w), w), 0, w)
        of = lambda: False
    by = '%s at %#x' % (i.mnemonic, i.addr)
    new = {'ZF': Lazy(lambda: bv.eq(r, 0, w)), 'SF': Lazy(lambda: msb(r, w)),
           'PF': Lazy(lambda: bv.parity(bv.extract(r, 7, 0, w))), 'AF': Undef(by)}
    if type(c) is int:
        # the SDM leaves CF undefined for shl/shr by the operand's width or
        # more (an 8- or 16-bit operand's masked count may reach it); sar's
        # too, which the two manuals do not state alike
        new['CF'] = Undef(by) if c >= w else Lazy(cf)
        new['OF'] = Lazy(of) if c == 1 else Undef(by)
    else:
        new['CF'] = Lazy(cf) if w >= 32 else Undef(by)
        new['OF'] = Undef(by)
    _keep_if_zero(m, c, new)
    m.put(d, r)


def rotate(m, i):
    """rol/ror rotate w bits by the masked count mod w; rcl/rcr rotate the
    w + 1 bits CF:operand by the masked count mod w + 1. Any nonzero masked
    count sets CF; OF only for a count of 1."""
    d = i.ops[0]
    w = 8 * d.size
    a = as_number(m.get(d), w)
    c = _count(m, i, w)
    left = i.mnemonic in ('rol', 'rcl')
    if i.mnemonic in ('rcl', 'rcr'):
        span = w + 1
        x = bv.concat([(bv.from_bool(m.flag('CF')), 1), (a, w)])   # CF above the operand
    else:
        span, x = w, a
    n = bv.urem(bv.zext(c, 8, span), span, span)
    if left:
        rx = bv.or_(bv.shl(x, n, span), bv.lshr(x, bv.sub(span, n, span), span), span)
    else:
        rx = bv.or_(bv.lshr(x, n, span), bv.shl(x, bv.sub(span, n, span), span), span)
    rx = bv.ite(bv.eq(n, 0, span), x, rx, span)
    r = bv.extract(rx, w - 1, 0, span)
    if span > w:
        cf = bv.bit(rx, w, span)
    else:
        cf = bv.bit(r, 0, w) if left else msb(r, w)
    of = bv.bxor(msb(r, w), cf) if left else bv.bxor(msb(r, w), bv.bit(r, w - 2, w))
    by = '%s at %#x' % (i.mnemonic, i.addr)
    if span == w and w < 32 and not (type(c) is int and c < w):
        cf = Undef(by)   # rol/ror of a byte or word by a multiple of its width: not stated alike by both manuals
    _keep_if_zero(m, c, {'CF': cf, 'OF': of if c == 1 else Undef(by)})
    m.put(d, r)


def double_shift(m, i):
    d, s = i.ops[0], i.ops[1]
    w = 8 * d.size
    a, b = as_number(m.get(d), w), as_number(m.get(s), w)
    c = _count(m, i, w)
    by = '%s at %#x' % (i.mnemonic, i.addr)
    if w == 16 and not (type(c) is int and c <= 16):
        m.refuse('a 16-bit %s by a count that may pass 16 (undefined)' % i.mnemonic)
    cw = bv.zext(c, 8, w)
    if i.mnemonic == 'shld':
        r = bv.or_(bv.shl(a, cw, w), bv.lshr(b, bv.sub(w, cw, w), w), w)
        cf = lambda: bv.bit(bv.lshr(a, bv.sub(w, cw, w), w), 0, w)
    else:
        r = bv.or_(bv.lshr(a, cw, w), bv.shl(b, bv.sub(w, cw, w), w), w)
        cf = lambda: bv.bit(bv.lshr(a, bv.sub(cw, 1, w), w), 0, w)
    r = bv.ite(bv.eq(cw, 0, w), a, r, w)
    new = {'CF': Lazy(cf), 'OF': Lazy(lambda: bv.bxor(msb(r, w), msb(a, w))) if c == 1 else Undef(by),
           'ZF': Lazy(lambda: bv.eq(r, 0, w)), 'SF': Lazy(lambda: msb(r, w)),
           'PF': Lazy(lambda: bv.parity(bv.extract(r, 7, 0, w))), 'AF': Undef(by)}
    _keep_if_zero(m, c, new)
    m.put(d, r)


# ---- bits --------------------------------------------------------------------

def bit_test(m, i):
    d, s = i.ops
    w = 8 * d.size
    if s.kind == 'imm':
        idx, op = (s.imm & 0xff) % w, d
    elif d.kind == 'reg':
        idx, op = bv.and_(as_number(m.get(s), w), w - 1, w), d
    else:
        # a register bit offset reaches past the operand: the operand-size
        # chunk it names, from the operand's address (signed)
        off = as_number(m.get(s), w)
        chunk = bv.mul(bv.sext(bv.ashr(off, {16: 4, 32: 5, 64: 6}[w], w), w, 64), d.size, 64)
        idx = bv.and_(off, w - 1, w)
        op = None
        addr = m.offset(m.ea(d), bv.fold(chunk))
    v = as_number(m.get(op), w) if op is not None else as_number(m.load(addr, d.size), w)
    one = bv.shl(1, idx, w)
    m.set_flags(CF=bv.bit(bv.lshr(v, idx, w), 0, w))
    m.undefine('OF', 'SF', 'AF', 'PF')
    if i.mnemonic == 'bt':
        return
    r = {'bts': bv.or_(v, one, w), 'btr': bv.and_(v, bv.not_(one, w), w), 'btc': bv.xor(v, one, w)}[i.mnemonic]
    if op is not None:
        m.put(op, r)
    else:
        m.store(addr, d.size, r)


def _lowest_set(x, w):
    """The index of the lowest set bit (w when none)."""
    if type(x) is int:
        return (x & -x).bit_length() - 1 if x else w
    out = bv.term(w, w)
    for k in reversed(range(w)):
        out = z3.If(z3.Extract(k, k, x) == 1, z3.BitVecVal(k, w), out)
    return out


def _highest_set(x, w):
    """The index of the highest set bit (-1, all ones, when none)."""
    if type(x) is int:
        return x.bit_length() - 1 if x else bv.mask(w)
    out = bv.term(bv.mask(w), w)
    for k in range(w):
        out = z3.If(z3.Extract(k, k, x) == 1, z3.BitVecVal(k, w), out)
    return out


def _scan_zero(m, d, w, zero, found, why):
    """The destination of a bit scan: found where the source is not zero,
    else any value (the whole 64-bit register for a 32-bit destination: a
    processor that leaves it unchanged does not zero its upper half)."""
    if zero is False:
        return m.put(d, found)
    k = REGS[d.reg][1]
    anything = m.choice(64, why)
    if w == 32:
        m.s.set_reg(GPRS[k], bv.ite(zero, anything, bv.zext(found, 32, 64), 64))
    else:
        m.put(d, bv.ite(zero, bv.extract(anything, w - 1, 0, 64), found, w))


def bit_scan(m, i):
    d, s = i.ops
    w = 8 * d.size
    x = as_number(m.get(s), w)
    zero = bv.fold(bv.eq(x, 0, w))
    found = _lowest_set(x, w) if i.mnemonic == 'bsf' else _highest_set(x, w)
    _scan_zero(m, d, w, zero, found, 'with a zero source (its destination: undefined on Intel, unchanged on AMD)')
    m.set_flags(ZF=zero)
    m.undefine('CF', 'OF', 'SF', 'AF', 'PF')


def count_zeros(m, i):
    """tzcnt (BMI1) and lzcnt (LZCNT/ABM) are bsf and bsr with an f3 prefix,
    which a processor without the extension ignores: the result is either
    instruction's, by whether the processor has it."""
    d, s = i.ops
    w = 8 * d.size
    x = as_number(m.get(s), w)
    zero = bv.fold(bv.eq(x, 0, w))
    if i.mnemonic == 'tzcnt':
        has = m.has('bmi1', 'runs as bsf on a processor without BMI1')
        scanned = _lowest_set(x, w)
        r = scanned
    else:
        has = m.has('lzcnt', 'runs as bsr on a processor without LZCNT (ABM)')
        scanned = _highest_set(x, w)
        r = bv.sub(w - 1, scanned, w)   # all ones + 1 = w - 1 - (-1) = w for zero
    _scan_zero(m, d, w, zero, scanned, 'with a zero source, on a processor without the extension (undefined on '
                                       'Intel, unchanged on AMD)')
    if w == 32:
        k = GPRS[REGS[d.reg][1]]
        m.s.set_reg(k, bv.ite(has, bv.zext(r, 32, 64), as_number(m.s.reg(k)), 64))
    else:
        m.put(d, bv.ite(has, r, as_number(m.s.reg(d.reg), w), w))
    m.set_flags(CF=bv.bite(has, zero, m.choice(0, 'leaves CF undefined (as bsf/bsr) on a processor without the '
                                                 'extension')),
                ZF=bv.bite(has, bv.eq(r, 0, w), zero))
    m.undefine('OF', 'SF', 'AF', 'PF')


def popcnt(m, i):
    d, s = i.ops
    w = 8 * d.size
    x = as_number(m.get(s), w)
    if type(x) is int:
        r = bin(x).count('1')
    else:
        r = z3.Sum([z3.ZeroExt(w - 1, z3.Extract(k, k, x)) for k in range(w)])
    m.put(d, r)
    m.set_flags(ZF=bv.eq(x, 0, w), CF=False, OF=False, SF=False, AF=False, PF=False)
