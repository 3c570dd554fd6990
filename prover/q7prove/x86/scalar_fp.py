# SPDX-License-Identifier: BSD-3-Clause
"""Scalar float models in z3's FloatingPoint theory (movss movsd, the
(u)comis compares, cmpCCss/sd, conversions, divides) and the control and
status of the float units (MXCSR, the x87 control word and environment)."""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.state import ABI_MXCSR, EMPTY_TAGS, FCW_DEFINED, Lazy, as_number


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
# and an SSE float instruction (F16C's conversions too) runs only under
# the ABI's (the models are round to nearest, no flush, no unmasked
# exception); the status bits are not modelled (unknown). The x87 control word starts as the ABI's 0x037f
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
