# SPDX-License-Identifier: BSD-3-Clause
"""Control-transfer and string instruction models: jmp jCC jrcxz call
ret nop trap cld/std and rep movs/stos with a count the code fixes."""
from q7prove.smt import bitvec as bv
from q7prove.machine.state import as_number
from q7prove.machine.memory import Ptr
from q7prove.x86.semantics import opcode_condition


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
