# SPDX-License-Identifier: BSD-3-Clause
"""The instruction models: what each x86-64 instruction the prover knows
does to a machine state (machine.state.Machine), one small function per
group of mnemonics, written once for every operand width, after the Intel
SDM (volume 2) and the AMD APM (volume 3):

  moves          mov movabs movzx movsx movsxd cbw cwde cdqe cwd cdq cqo
                 lea xchg bswap cmovCC setCC push pop leave
  integer ALU    add adc sub sbb cmp and or xor test neg not inc dec, with
                 CF PF AF ZF SF OF exact (AF only for the adds, subtracts
                 and their kin; the manual leaves it undefined elsewhere)
  multiply/div   mul imul (1, 2, 3 operands) div idiv (a zero divisor or a
                 quotient that does not fit faults: a violation)
  shifts         shl sal shr sar rol ror rcl rcr shld shrd, counts masked
                 to 5 bits (6 for 64-bit operands); a zero count changes no
                 flag; flags the manual leaves undefined are Undef
  bits           bt bts btr btc bsf bsr tzcnt lzcnt popcnt
  control        jmp jCC jrcxz call ret nop endbr64 prefetch* ud2 hlt int3
                 cld std, rep movs/stos with a count the code fixes
  SSE/AVX        movd movq movaps movups movapd movupd movdqa movdqu movhps
                 movlps movhpd movlpd movhlps movlhps pxor por pand pandn and
                 the ps/pd logic, pcmpeq*/pcmpgt*, pmovmskb movmskps movmskpd,
                 pshufd pshuflw pshufhw shufps shufpd, punpck* unpck*,
                 psll*/psrl*/psra*, pslldq psrldq, padd*/psub*, pextrw pinsrw,
                 their VEX forms (v..., 128 and 256 bits), vzeroupper
  scalar float   movss movsd ucomiss comiss ucomisd comisd cmpCCss cmpCCsd
                 cvtss2sd cvtsd2ss (and VEX forms), in z3's FloatingPoint
                 theory; MXCSR is the ABI's: round to nearest even, no
                 flush to zero, exceptions masked

Which encodings run which function is the instruction table's
(x86/table.py); bytes no row accepts are refused by name and address
(Refusal), never skipped.
"""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.state import ABI_MXCSR, EMPTY_TAGS, FCW_DEFINED, GPRS, REGS, VLEN, Lazy, Undef, as_number
from q7prove.machine.memory import External, Ptr, Refusal


def execute(m):
    """One instruction on m: the model of the table's row its bytes
    select (x86/decode.py looked it up), or a Refusal naming why none."""
    i = m.insn
    if i.form is None:
        raise Refusal('%s at %#x (%s)' % (i.unaccepted, i.addr, i.shown()))
    for op in i.ops:
        for r in (op.reg, op.base, op.index):
            if r is not None and r not in REGS and r != 'rip':
                m.refuse('unmodelled register %s' % r)
    i.form.row.model(m, i)


# ---- flags ---------------------------------------------------------------

def msb(x, w):
    return bv.bit(x, w - 1, w)


def result_flags(m, r, w):
    """ZF SF PF from a result."""
    m.set_flags(ZF=Lazy(lambda: bv.eq(r, 0, w)), SF=Lazy(lambda: msb(r, w)),
                PF=Lazy(lambda: bv.parity(bv.extract(r, 7, 0, w))))


def add_flags(m, a, b, carry, r, w):
    def cf():
        wide = bv.add(bv.add(bv.zext(a, w, w + 1), bv.zext(b, w, w + 1), w + 1), bv.zext(carry, 1, w + 1), w + 1)
        return bv.bit(wide, w, w + 1)
    m.set_flags(CF=Lazy(cf), OF=Lazy(lambda: bv.band(bv.bnot(bv.bxor(msb(a, w), msb(b, w))),
                                                     bv.bxor(msb(r, w), msb(a, w)))),
                AF=Lazy(lambda: bv.bit(bv.xor(bv.xor(a, b, w), r, w), 4, w) if w > 4 else False))
    result_flags(m, r, w)


def sub_flags(m, a, b, borrow, r, w):
    def cf():
        return bv.ult(bv.zext(a, w, w + 1), bv.add(bv.zext(b, w, w + 1), bv.zext(borrow, 1, w + 1), w + 1), w + 1)
    m.set_flags(CF=Lazy(cf), OF=Lazy(lambda: bv.band(bv.bxor(msb(a, w), msb(b, w)), bv.bxor(msb(r, w), msb(a, w)))),
                AF=Lazy(lambda: bv.bit(bv.xor(bv.xor(a, b, w), r, w), 4, w)))
    result_flags(m, r, w)


def logic_flags(m, r, w):
    m.set_flags(CF=False, OF=False)
    m.undefine('AF')
    result_flags(m, r, w)


CONDITIONS = {
    'o': lambda f: f('OF'), 'no': lambda f: bv.bnot(f('OF')),
    'b': lambda f: f('CF'), 'ae': lambda f: bv.bnot(f('CF')),
    'e': lambda f: f('ZF'), 'ne': lambda f: bv.bnot(f('ZF')),
    'be': lambda f: bv.bor(f('CF'), f('ZF')), 'a': lambda f: bv.band(bv.bnot(f('CF')), bv.bnot(f('ZF'))),
    's': lambda f: f('SF'), 'ns': lambda f: bv.bnot(f('SF')),
    'p': lambda f: f('PF'), 'np': lambda f: bv.bnot(f('PF')),
    'l': lambda f: bv.bxor(f('SF'), f('OF')), 'ge': lambda f: bv.bnot(bv.bxor(f('SF'), f('OF'))),
    'le': lambda f: bv.bor(f('ZF'), bv.bxor(f('SF'), f('OF'))),
    'g': lambda f: bv.band(bv.bnot(f('ZF')), bv.bnot(bv.bxor(f('SF'), f('OF')))),
}
CC_ORDER = list(CONDITIONS)     # by the low four bits of the opcode (jcc 70+cc, setcc 0f 90+cc, ...)


def condition(m, cc):
    return CONDITIONS[cc](m.flag)


def opcode_condition(m, i):
    """The condition a +cc opcode names (70 jo ... 7f jg)."""
    return condition(m, CC_ORDER[i.enc.opcode & 15])


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
    d2 = (bv.sext if signed else bv.zext)(dv, w, 2 * w)
    q = (bv.sdiv if signed else bv.udiv)(n, d2, 2 * w)
    r = (bv.srem if signed else bv.urem)(n, d2, 2 * w)
    q_lo = bv.extract(q, w - 1, 0, 2 * w)
    fits = bv.eq(q, (bv.sext if signed else bv.zext)(q_lo, w, 2 * w), 2 * w)
    zero = bv.eq(dv, 0, w)
    m.violation('divides by zero', zero)
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


# ---- control -----------------------------------------------------------------

def jmp(m, i):
    t = i.ops[0]
    if t.kind == 'imm':
        m.next = t.imm
    else:
        m.exe.jump_to(m, m.get(t))


def jcc(m, i):
    c = opcode_condition(m, i)
    target = i.ops[0].imm
    if type(c) is bool:
        if c:
            m.next = target
    else:
        m.fork = (c, target)


def jrcxz(m, i):
    c = bv.fold(bv.eq(as_number(m.s.reg('rcx'), 64), 0, 64))
    if type(c) is bool:
        if c:
            m.next = i.ops[0].imm
    else:
        m.fork = (c, i.ops[0].imm)


def call(m, i):
    t = i.ops[0]
    target = t.imm if t.kind == 'imm' else m.get(t)
    m.push(Ptr(m.exe.image_obj, i.next))
    m.s.calls = m.s.calls + (i.next,)
    if t.kind == 'imm':
        m.next = target
    else:
        m.exe.jump_to(m, target)


def ret(m, i):
    target = m.pop(8)
    if i.ops:
        m.s.set_reg('rsp', m.offset(m.s.reg('rsp'), i.ops[0].imm & 0xffff))
    m.exe.return_to(m, target)


def nop(m, i):
    pass                     # a nop's or prefetch's memory operand is never accessed


def trap(m, i):
    m.violation('reaches %s, which faults' % i.mnemonic)
    m.exe.end_path(m)


def direction(m, i):
    m.set_flags(DF=i.mnemonic == 'std')


def string_op(m, i):
    n = i.ops[0].size
    repeat = 'rep' in i.prefixes
    count = bv.fold(m.s.reg('rcx')) if repeat else 1
    if not bv.known(count):
        m.refuse('rep %s with a count the code does not fix' % i.mnemonic)
    if count > 4096:
        m.refuse('rep %s of %d elements' % (i.mnemonic, count))
    df = m.flag('DF')
    if type(df) is not bool:
        m.refuse('a string operation with a direction flag that depends on the input')
    step = -n if df else n
    stos = i.mnemonic.startswith('stos')
    value = as_number(m.s.reg({1: 'al', 2: 'ax', 4: 'eax', 8: 'rax'}[n]), 8 * n) if stos else None
    for _ in range(count):
        if not stos:
            value = m.load(m.s.reg('rsi'), n)
            m.s.set_reg('rsi', m.offset(m.s.reg('rsi'), step & bv.mask(64)))
        m.store(m.s.reg('rdi'), n, value)
        m.s.set_reg('rdi', m.offset(m.s.reg('rdi'), step & bv.mask(64)))
    if repeat:
        m.s.set_reg('rcx', 0)


# ---- vectors: lanes ------------------------------------------------------------

def lanes(x, lw, w):
    """The w-bit x as w/lw elements of lw bits, lowest first. A
    concatenation (what join builds) is cut along its parts, each element
    taken from the one or two parts it lies in, not out of the whole."""
    if type(x) is int or not z3.is_app_of(x, z3.Z3_OP_CONCAT):
        return [bv.extract(x, lw * k + lw - 1, lw * k, w) for k in range(w // lw)]
    parts, lo = [], 0                       # (low bit, width, term), lowest first
    todo = [x]                              # z3 nests a long concatenation: flattened, lowest part first
    while todo:
        t = todo.pop()
        if z3.is_app_of(t, z3.Z3_OP_CONCAT):
            todo.extend(t.children())
            continue
        n = t.size()
        parts.append((lo, n, t.as_long() if z3.is_bv_value(t) else t))
        lo += n
    out, p = [], 0
    for k in range(w // lw):
        a, b = lw * k, lw * k + lw
        while parts[p][0] + parts[p][1] <= a:
            p += 1
        bits, q = [], p
        while a < b:
            plo, pn, t = parts[q]
            hi = min(b, plo + pn)
            bits.append((bv.extract(t, hi - 1 - plo, a - plo, pn), hi - a))
            a, q = hi, q + 1
        out.append(bits[0][0] if len(bits) == 1 else bv.concat(list(reversed(bits))))
    return out


def join(ls, lw):
    return bv.concat([(v, lw) for v in reversed(ls)])


def per128(fn, a, b, w, *extra):
    """fn applied to each 128-bit lane of a and b (AVX2 works lane by lane)."""
    return join([fn(x, y, 128, *extra) for x, y in zip(lanes(a, 128, w), lanes(b, 128, w))], 128)


def vec_operands(m, i, align_legacy=True):
    """(destination, first source value, second source value, width, vex):
    a legacy op reads its destination as the first source; a 128-bit
    memory operand of a legacy op must be 16-aligned."""
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    w = 8 * d.size
    srcs = i.ops[1:] if vex else i.ops
    b_op = srcs[1] if len(srcs) > 1 and srcs[1].kind != 'imm' else srcs[-1] if srcs[-1].kind != 'imm' else srcs[-2]
    if not vex and b_op.kind == 'mem' and b_op.size == 16 and align_legacy:
        m.aligned(m.ea(b_op), 16)
    a = m.get(srcs[0]) if len(srcs) > 1 or not vex else None
    b = m.get(b_op)
    return d, a, b, w, vex


def vec_binary(lane_fn, lw=None):
    """A lane-wise op of two vectors: lane_fn(x, y, lw) per lw-bit lane."""
    def op(m, i):
        d, a, b, w, vex = vec_operands(m, i)
        r = join([lane_fn(x, y, lw) for x, y in zip(lanes(a, lw, w), lanes(b, lw, w))], lw) if lw else lane_fn(a, b, w)
        m.put(d, r, vex)
    return op


vec_xor = vec_binary(bv.xor)
vec_or = vec_binary(bv.or_)
vec_and = vec_binary(bv.and_)
vec_andn = vec_binary(lambda x, y, w: bv.and_(bv.not_(x, w), y, w))


def vec_cmpeq(lw):
    return vec_binary(lambda x, y, lw: bv.ite(bv.eq(x, y, lw), bv.mask(lw), 0, lw), lw)


def vec_cmpgt(lw):
    return vec_binary(lambda x, y, lw: bv.ite(bv.slt(y, x, lw), bv.mask(lw), 0, lw), lw)


def vec_add(lw):
    return vec_binary(bv.add, lw)


def vec_sub(lw):
    return vec_binary(bv.sub, lw)


def unpack_lanes(lw, high):
    """The low (high) halves of each 128-bit lane of two w-bit values interleaved."""
    def lane(x, y, w):
        xs, ys = lanes(x, lw, w), lanes(y, lw, w)
        half = len(xs) // 2
        xs, ys = (xs[half:], ys[half:]) if high else (xs[:half], ys[:half])
        return join([v for pair in zip(xs, ys) for v in pair], lw)
    return lambda x, y, w: per128(lane, x, y, w)


def unpack(lw, high):
    """punpckl*/punpckh*/unpck*: unpack_lanes on two vector operands."""
    return vec_binary(unpack_lanes(lw, high))


def _shuffle_imm(m, i):
    return i.ops[-1].imm & 0xff


def pshuf(m, i):
    d, s = i.ops[0], i.ops[1]
    w = 8 * d.size
    vex = i.mnemonic.startswith('v')
    if not vex and s.kind == 'mem':
        m.aligned(m.ea(s), 16)
    x, imm = m.get(s), _shuffle_imm(m, i)
    kind = i.mnemonic.lstrip('v')

    def lane(v, _unused, lw):
        if kind == 'pshufd':
            ds = lanes(v, 32, 128)
            return join([ds[(imm >> (2 * k)) & 3] for k in range(4)], 32)
        ws = lanes(v, 16, 128)
        lo, hi = ws[:4], ws[4:]
        if kind == 'pshuflw':
            lo = [ws[(imm >> (2 * k)) & 3] for k in range(4)]
        else:
            hi = [ws[4 + ((imm >> (2 * k)) & 3)] for k in range(4)]
        return join(lo + hi, 16)
    m.put(d, per128(lane, x, x, w), vex)


def shufp(m, i):
    d, a, b, w, vex = vec_operands(m, i)
    imm = _shuffle_imm(m, i)
    single = 'ps' in i.mnemonic

    def lane(x, y, lw):
        if single:
            xs, ys = lanes(x, 32, 128), lanes(y, 32, 128)
            return join([xs[imm & 3], xs[(imm >> 2) & 3], ys[(imm >> 4) & 3], ys[(imm >> 6) & 3]], 32)
        xs, ys = lanes(x, 64, 128), lanes(y, 64, 128)
        return join([xs[imm & 1], ys[(imm >> 1) & 1]], 64)
    if not single and w == 256:
        m.refuse('a 256-bit shufpd')
    m.put(d, per128(lane, a, b, w), vex)


def shift_lanes(kind, lw):
    """psll/psrl/psra by an immediate or by the low 64 bits of a vector."""
    def op(m, i):
        vex = i.mnemonic.startswith('v')
        d = i.ops[0]
        w = 8 * d.size
        srcs = i.ops[1:] if vex else i.ops
        x = m.get(srcs[0])
        c = srcs[-1]
        if c.kind == 'imm':
            n = c.imm & 0xff
        else:
            if not vex and c.kind == 'mem' and c.size == 16:
                m.aligned(m.ea(c), 16)
            n = bv.fold(bv.extract(m.get(c), 63, 0, 8 * c.size))
        if type(n) is int:
            big = n >= lw
            f = {'l': lambda v: 0 if big else bv.shl(v, n, lw), 'r': lambda v: 0 if big else bv.lshr(v, n, lw),
                 'a': lambda v: bv.ashr(v, min(n, lw - 1), lw)}[kind]
        else:
            big = z3.UGE(n, lw)
            nl = z3.Extract(lw - 1, 0, n) if lw < 64 else n
            f = {'l': lambda v: z3.If(big, z3.BitVecVal(0, lw), bv.term(v, lw) << nl),
                 'r': lambda v: z3.If(big, z3.BitVecVal(0, lw), z3.LShR(bv.term(v, lw), nl)),
                 'a': lambda v: bv.term(v, lw) >> z3.If(big, z3.BitVecVal(lw - 1, lw), nl)}[kind]
        m.put(d, join([f(v) for v in lanes(x, lw, w)], lw), vex)
    return op


def byte_shift(m, i):
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    w = 8 * d.size
    x = m.get(i.ops[1] if vex else d)
    n = i.ops[-1].imm & 0xff
    left = 'll' in i.mnemonic

    def lane(v, _unused, lw):
        if n > 15:
            return 0
        return bv.shl(v, 8 * n, 128) if left else bv.lshr(v, 8 * n, 128)
    m.put(d, per128(lane, x, x, w), vex)


def move_mask(m, i):
    d, s = i.ops
    w = 8 * s.size
    lw = 8 if 'pmovmskb' in i.mnemonic else 32 if 'ps' in i.mnemonic else 64
    bits = [bv.from_bool(msb(v, lw)) for v in lanes(m.get(s), lw, w)]
    m.put(d, bv.zext(join(bits, 1), len(bits), 8 * d.size))


def pextrw(m, i):
    d, s, c = i.ops
    k = c.imm & (7 if s.size == 16 else 15)
    word = bv.extract(m.get(s), 16 * k + 15, 16 * k, 8 * s.size)
    if d.kind == 'mem':
        m.put(d, word)
    else:
        m.put(d, bv.zext(word, 16, 8 * d.size))


def pinsrw(m, i):
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    base = m.get(i.ops[1] if vex else d)
    s, c = i.ops[-2], i.ops[-1]
    word = bv.extract(as_number(m.get(s), 8 * s.size), 15, 0, 8 * s.size)
    k = c.imm & 7
    ws = lanes(base, 16, 128)
    ws[k] = word
    m.put(d, join(ws, 16), vex)


# ---- vectors: moves ------------------------------------------------------------

ALIGNED = {'movaps', 'movapd', 'movdqa', 'vmovaps', 'vmovapd', 'vmovdqa'}


def vec_move(m, i):
    d, s = i.ops
    if i.mnemonic in ALIGNED or 'movnt' in i.mnemonic:
        for op in (d, s):
            if op.kind == 'mem':
                m.aligned(m.ea(op), op.size)
    m.put(d, m.get(s), i.mnemonic.startswith('v'))


def movdq(m, i):
    d, s = i.ops
    n = 4 if i.mnemonic.endswith('d') else 8
    v = bv.extract(as_number(m.get(s), 8 * s.size), 8 * n - 1, 0, 8 * s.size)
    if d.kind == 'reg' and d.reg.startswith('xmm'):
        m.put(d, bv.zext(v, 8 * n, 128), i.mnemonic.startswith('v'))
    else:
        m.put(d, v)


def move_half(m, i):
    high = 'h' in i.mnemonic.lstrip('v')[3]
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    if d.kind == 'mem':
        x = m.get(i.ops[1])
        m.put(d, bv.extract(x, 127, 64, 128) if high else bv.extract(x, 63, 0, 128))
        return
    base = m.get(i.ops[1] if vex else d)
    v = m.get(i.ops[-1])
    r = join([bv.extract(base, 63, 0, 128), v] if high else [v, bv.extract(base, 127, 64, 128)], 64)
    m.put(d, r, vex)


def move_halves(m, i):
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    base = m.get(i.ops[1] if vex else d)
    s = m.get(i.ops[-1])
    if 'hl' in i.mnemonic:
        r = join([bv.extract(s, 127, 64, 128), bv.extract(base, 127, 64, 128)], 64)
    else:
        r = join([bv.extract(base, 63, 0, 128), bv.extract(s, 63, 0, 128)], 64)
    m.put(d, r, vex)


def vzero(m, i):
    for k in range(16):     # in 64-bit mode zmm16..zmm31 keep their bits
        m.s.vec[k] = 0 if i.mnemonic == 'vzeroall' else bv.zext(bv.extract(m.s.vec[k], 127, 0, VLEN), 128, VLEN)


# ---- scalar float ----------------------------------------------------------------

SORTS = {32: z3.Float32(), 64: z3.Float64()}


def fp(x, w):
    return z3.fpBVToFP(bv.term(x, w), SORTS[w])


def scalar_move(m, i):
    """movss/movsd: a load zeroes the rest of the xmm, a register move
    (and the VEX 3-operand form) merges the low element."""
    n = 32 if i.mnemonic.endswith('ss') else 64
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    if d.kind == 'mem':
        m.put(d, bv.extract(m.get(i.ops[-1]), n - 1, 0, 128))
        return
    s = i.ops[-1]
    if s.kind == 'mem':
        m.put(d, bv.zext(m.get(s), n, 128), vex)
        return
    base = m.get(i.ops[1] if vex else d)
    m.put(d, bv.concat([(bv.extract(base, 127, n, 128), 128 - n), (bv.extract(m.get(s), n - 1, 0, 128), n)]), vex)


def _scalar_source(m, op, n):
    v = m.get(op)
    return bv.extract(v, n - 1, 0, 8 * op.size)


def fp_compare_flags(m, i):
    """ZF PF CF = 111 unordered, 000 greater, 001 less, 100 equal; OF SF AF
    cleared (comiss differs from ucomiss only in the exception, masked)."""
    abi_mxcsr(m)
    n = 32 if i.mnemonic.endswith('ss') else 64
    a, b = _scalar_source(m, i.ops[0], n), _scalar_source(m, i.ops[1], n)
    fa, fb = fp(a, n), fp(b, n)
    un = z3.Or(z3.fpIsNaN(fa), z3.fpIsNaN(fb))
    m.set_flags(ZF=Lazy(lambda: bv.fold(z3.Or(un, z3.fpEQ(fa, fb)))), PF=Lazy(lambda: bv.fold(un)),
                CF=Lazy(lambda: bv.fold(z3.Or(un, z3.fpLT(fa, fb)))), OF=False, SF=False, AF=False)


# the 32 predicates of cmpss/cmpsd/vcmpss/vcmpsd by number, and capstone's names
PREDICATES = ['eq', 'lt', 'le', 'unord', 'neq', 'nlt', 'nle', 'ord', 'eq_uq', 'nge', 'ngt', 'false', 'neq_oq',
              'ge', 'gt', 'true', 'eq_os', 'lt_oq', 'le_oq', 'unord_s', 'neq_us', 'nlt_uq', 'nle_uq', 'ord_s',
              'eq_us', 'nge_uq', 'ngt_uq', 'false_os', 'neq_os', 'ge_oq', 'gt_oq', 'true_us']


def predicate(k, fa, fb):
    """Predicate k (mod 16: the upper half only signals differently) on two floats."""
    un = z3.Or(z3.fpIsNaN(fa), z3.fpIsNaN(fb))
    base = [z3.fpEQ(fa, fb), z3.fpLT(fa, fb), z3.fpLEQ(fa, fb), un,
            z3.Not(z3.fpEQ(fa, fb)), z3.Not(z3.fpLT(fa, fb)), z3.Not(z3.fpLEQ(fa, fb)), z3.Not(un),
            z3.Or(un, z3.fpEQ(fa, fb)), z3.Not(z3.fpGEQ(fa, fb)), z3.Not(z3.fpGT(fa, fb)), z3.BoolVal(False),
            z3.And(z3.Not(un), z3.Not(z3.fpEQ(fa, fb))), z3.fpGEQ(fa, fb), z3.fpGT(fa, fb), z3.BoolVal(True)]
    return base[k % 16]


def fp_compare_mask(m, i):
    """cmpss/cmpsd: the predicate is the immediate's bits 2:0 (legacy) or
    4:0 (VEX), read from the bytes; the bits above are reserved."""
    abi_mxcsr(m)
    vex = i.enc.vex == 'vex'
    n = 32 if i.mnemonic.endswith('ss') else 64
    k = i.enc.imm
    if k >= (32 if vex else 8):
        m.refuse('a compare predicate %#x with reserved bits set' % k)
    ops = [o for o in i.ops if o.kind != 'imm']
    d = ops[0]
    srcs = ops[1:] if vex else ops
    base = m.get(srcs[0])
    a, b = bv.extract(base, n - 1, 0, 128), _scalar_source(m, srcs[-1], n)
    r = bv.ite(bv.fold(predicate(k, fp(a, n), fp(b, n))), bv.mask(n), 0, n)
    m.put(d, bv.concat([(bv.extract(base, 127, n, 128), 128 - n), (r, n)]), vex)


def _quiet_nan(x, w_from, w_to):
    """A NaN converted between formats: sign kept, payload's top bits
    kept, quiet bit set (the SDM's conversion of a NaN operand)."""
    frac_from, frac_to = {32: 23, 64: 52}[w_from], {32: 23, 64: 52}[w_to]
    sign = bv.extract(x, w_from - 1, w_from - 1, w_from)
    frac = bv.extract(x, frac_from - 1, 0, w_from)
    if frac_to > frac_from:
        frac = bv.shl(bv.zext(frac, frac_from, frac_to), frac_to - frac_from, frac_to)
    else:
        frac = bv.extract(frac, frac_from - 1, frac_from - frac_to, frac_from)
    frac = bv.or_(frac, 1 << (frac_to - 1), frac_to)
    return bv.concat([(sign, 1), (bv.mask(w_to - frac_to - 1), w_to - frac_to - 1), (frac, frac_to)])


def fp_convert(m, i):
    abi_mxcsr(m)
    vex = i.mnemonic.startswith('v')
    to_double = 'ss2sd' in i.mnemonic
    n_from, n_to = (32, 64) if to_double else (64, 32)
    d = i.ops[0]
    base = m.get(i.ops[1] if vex else d)
    x = _scalar_source(m, i.ops[-1], n_from)
    f = fp(x, n_from)
    conv = z3.fpToIEEEBV(z3.fpToFP(z3.RNE(), f, SORTS[n_to]))
    r = bv.fold(z3.If(z3.fpIsNaN(f), bv.term(_quiet_nan(x, n_from, n_to), n_to), conv))
    m.put(d, bv.concat([(bv.extract(base, 127, n_to, 128), 128 - n_to), (r, n_to)]), vex)


def _nan_result(x, y, n, f):
    """An SSE arithmetic result where an operand is NaN or the operation
    invalid: the first NaN operand quieted, else the default NaN (the SDM's
    table 4-7), else f's rounded value."""
    quiet = 1 << (22 if n == 32 else 51)
    fx, fy = fp(x, n), fp(y, n)
    indefinite = 0xffc00000 if n == 32 else 0xfff8000000000000
    value = z3.fpToIEEEBV(f(fx, fy))
    return z3.If(z3.fpIsNaN(fx), bv.term(x, n) | quiet,
                 z3.If(z3.fpIsNaN(fy), bv.term(y, n) | quiet,
                       z3.If(z3.fpIsNaN(f(fx, fy)), z3.BitVecVal(indefinite, n), value)))


def fp_divide(m, i):
    abi_mxcsr(m)
    vex = i.mnemonic.startswith('v')
    n = 32 if i.mnemonic.endswith('ss') else 64
    d = i.ops[0]
    base = m.get(i.ops[1] if vex else d)
    a, b = bv.extract(base, n - 1, 0, 128), _scalar_source(m, i.ops[-1], n)
    r = bv.fold(_nan_result(a, b, n, lambda x, y: z3.fpDiv(z3.RNE(), x, y)))
    m.put(d, bv.concat([(bv.extract(base, 127, n, 128), 128 - n), (r, n)]), vex)


# ---- the control and status of the float units -------------------------------------
# MXCSR's control bits start as the ABI's (0x1f80: round to nearest, no DAZ
# or FTZ, every exception masked) and are kept per path: ldmxcsr may change
# them, a leaf must return them as it found them (they are callee-saved),
# and an SSE float instruction (F16C's conversions too) runs only under the ABI's (the models are
# round to nearest, no flush, no unmasked exception); the status bits are
# not modelled (unknown). The x87 control word starts as the ABI's 0x037f
# and its tag word all empty; both are kept per path, a leaf must return
# the control word's defined bits as it found them and every x87 register
# empty, and wait, fldcw and fldenv fault on a pending exception the
# control word does not mask. Bits the manuals reserve read back as anything.


def abi_mxcsr(m):
    """An SSE float instruction: refused unless MXCSR's control bits are the ABI's."""
    if not bv.same(m.s.mxcsr, ABI_MXCSR):
        m.refuse('%s under MXCSR control bits other than the ABI\'s 0x1f80 (rounding, flush to zero and '
                 'unmasked exceptions are not modelled)' % m.insn.mnemonic)


def stmxcsr(m, i):
    m.put(i.ops[0], bv.or_(bv.zext(m.s.mxcsr, 32, 32),
                           bv.zext(z3.FreshConst(z3.BitVecSort(6), 'mxcsr_status'), 6, 32), 32))


def ldmxcsr(m, i):
    v = as_number(m.get(i.ops[0]), 32)
    m.violation('faults (#GP): loads MXCSR with a reserved bit (31..16) set',
                bv.bnot(bv.eq(bv.fold(bv.and_(v, 0xffff0000, 32)), 0, 32)))
    control = bv.fold(bv.and_(v, 0xffc0, 32))
    if not bv.known(control):
        m.refuse('loads MXCSR control bits that depend on the input')
    if control & 0x40:
        m.refuse('sets MXCSR\'s DAZ bit, which faults (#GP) on a processor without it (its MXCSR_MASK)')
    m.s.mxcsr = control


def _stored_fcw(m):
    """The control word as fnstcw/fnstenv store it: the reserved bits unknown."""
    reserved = m.choice(16, 'stores the x87 control word\'s reserved bits (undefined)')
    return bv.or_(bv.and_(m.s.fcw, FCW_DEFINED, 16), bv.and_(reserved, 0xffff ^ FCW_DEFINED, 16), 16)


def fstenv(m, i):
    """The 28-byte x87 environment: control word at 0, status word at 4,
    tag word at 8 (all empty as stored, 0xffff; a register not empty has
    a tag its contents decide: unknown), reserved halves and the last
    instruction's pointers unknown; then every x87 exception is masked."""
    addr = m.ea(i.ops[0])
    unknown = lambda bits: m.choice(bits, 'stores reserved fields, or the last x87 instruction\'s pointers, '
                                          'which the manuals do not fix')
    tags = bv.fold(bv.ite(bv.eq(m.s.ftw, EMPTY_TAGS, 16), EMPTY_TAGS, unknown(16), 16))
    env = bv.concat([(unknown(8 * 16), 8 * 16), (unknown(16), 16), (tags, 16), (unknown(16), 16),
                     (bv.zext(m.s.fsw, 16, 16), 16), (unknown(16), 16), (_stored_fcw(m), 16)])
    m.store(addr, 28, env)
    if i.mnemonic == 'fstenv':
        _wait(m)
    m.s.fcw = bv.or_(m.s.fcw, 0x3f, 16)


def fldenv(m, i):
    _wait(m)
    env = as_number(m.load(m.ea(i.ops[0]), 28), 8 * 28)
    m.s.fcw = _control_word(bv.extract(env, 15, 0, 8 * 28))
    m.s.fsw = bv.fold(bv.extract(env, 47, 32, 8 * 28))
    m.s.ftw = bv.fold(bv.extract(env, 79, 64, 8 * 28))


def fstcw(m, i):
    m.put(i.ops[0], _stored_fcw(m))


def fldcw(m, i):
    _wait(m)
    m.s.fcw = _control_word(as_number(m.get(i.ops[0]), 16))


def _control_word(v):
    """The x87 control word a load leaves: its reserved bits as the CPU
    keeps them (bit 6 set; 7, 13, 14, 15 clear), whatever was loaded."""
    return bv.fold(bv.or_(bv.and_(v, 0x1f3f, 16), 0x0040, 16))


def _wait(m):
    """A waiting x87 instruction (wait, and every x87 instruction but the
    fn- forms: fldcw and fldenv too) first faults on an exception pending
    that the control word does not mask (SDM vol. 1, 8.6; APM vol. 1,
    6.4.2), as a fldenv or fldcw before it may have left one."""
    pending = bv.fold(bv.and_(bv.and_(m.s.fsw, 0x3f, 16), bv.not_(m.s.fcw, 16), 16))
    m.violation('faults (#MF): an x87 exception is pending that the control word does not mask',
                bv.bnot(bv.eq(pending, 0, 16)))


def wait(m, i):
    _wait(m)

