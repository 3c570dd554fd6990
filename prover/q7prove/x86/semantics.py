# SPDX-License-Identifier: BSD-3-Clause
"""The instruction models: what each x86-64 instruction the prover knows
does to a machine state (machine.state.Machine), one small function per
group of mnemonics, written once for every operand width, after the Intel
SDM (volume 2) and the AMD APM (volume 3). This module runs one
instruction (execute) and holds what every model shares: the arithmetic
flags and the condition codes. The models, by module:

  x86/integer.py    moves (mov movzx movsx movsxd cbw..cqo lea xchg bswap
                    cmovCC setCC push pop leave), the ALU (add adc sub sbb
                    cmp and or xor test neg not inc dec: CF PF AF ZF SF OF
                    exact, AF only where the manual defines it), multiply
                    and divide (a zero divisor or a quotient that does not
                    fit faults: a violation), shifts and rotates (counts
                    masked; a zero count changes no flag; undefined flags
                    Undef), bits (bt* bsf bsr tzcnt lzcnt popcnt)
  x86/control.py    jmp jCC jrcxz call ret nop endbr64 prefetch* ud2 hlt
                    int3 cld std, rep movs/stos with a count the code fixes
  x86/sse.py        SSE/SSE2 moves, logic, compares, shuffles, unpacks,
                    shifts, lane arithmetic, pextrw/pinsrw, their VEX forms
                    at 128 and 256 bits, vzeroupper
  x86/scalar_fp.py  movss movsd (u)comiss/sd cmpCCss/sd cvtss2sd cvtsd2ss
                    divss/sd in z3's FloatingPoint theory (MXCSR the ABI's:
                    round to nearest even, no flush to zero, exceptions
                    masked), and ldmxcsr stmxcsr fnstenv fldenv fnstcw
                    fldcw wait
  x86/bitmanip.py, simd.py, avx512.py, opmask.py: BMI1/BMI2, SSE4/AVX2/F16C,
                    AVX-512 and the opmask instructions

Which encodings run which function is the instruction table's
(x86/table.py); bytes no row accepts are refused by name and address
(Refusal), never skipped.
"""

from q7prove.smt import bitvec as bv
from q7prove.machine.state import REGS, Lazy
from q7prove.machine.memory import Refusal


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
