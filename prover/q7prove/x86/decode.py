# SPDX-License-Identifier: BSD-3-Clause
"""The x86-64 decoder front: capstone decodes each instruction of the
library's code once (but the EVEX and VEX opmask instructions, which
x86/evex.py decodes), and this module turns its answer into the plain
records the instruction table (x86/semantics.py) reads: a mnemonic
without its prefixes, the prefixes as a set, and operands in Intel order
(destination first), each a register, an immediate or a memory reference
with its size in bytes. Capstone's decoding is trusted (docs/proofs.md).
"""
import capstone
from capstone import x86 as cx

PREFIX_WORDS = {'rep': 'rep', 'repe': 'rep', 'repz': 'rep', 'repne': 'repne', 'repnz': 'repne', 'lock': 'lock',
                'bnd': 'bnd', 'notrack': 'notrack'}


class Operand:
    __slots__ = ('kind', 'size', 'reg', 'imm', 'base', 'index', 'scale', 'disp', 'seg')

    def __init__(self, kind, size, reg=None, imm=None, base=None, index=None, scale=1, disp=0, seg=None):
        self.kind, self.size, self.reg, self.imm = kind, size, reg, imm
        self.base, self.index, self.scale, self.disp, self.seg = base, index, scale, disp, seg

    def __repr__(self):
        if self.kind == 'reg':
            return self.reg
        if self.kind == 'imm':
            return hex(self.imm)
        return '%d[%s+%s*%d+%#x]' % (self.size, self.base, self.index, self.scale, self.disp)


class Insn:
    __slots__ = ('addr', 'size', 'next', 'mnemonic', 'ops', 'prefixes', 'text')

    def __init__(self, addr, size, mnemonic, ops, prefixes, text):
        self.addr, self.size, self.next = addr, size, addr + size
        self.mnemonic, self.ops, self.prefixes, self.text = mnemonic, ops, prefixes, text


class DecodeError(Exception):
    pass


class Decoder:
    """Instructions of an elf_image.Image by address, decoded once."""

    def __init__(self, image):
        self.image = image
        self.cs = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
        self.cs.detail = True
        self.cache = {}

    def at(self, addr):
        insn = self.cache.get(addr)
        if insn is None:
            insn = self.cache[addr] = self._decode(addr)
        return insn

    def _decode(self, addr):
        if not self.image.executable(addr):
            raise DecodeError('jumps to %s, which is not code' % self.image.where(addr))
        seg = self.image.segment_of(addr)
        code = self.image.bytes_at(addr, min(15, seg[0] + seg[1] - addr))
        from q7prove.x86 import evex      # the AVX-512 encodings, decoded by hand (it imports this module)
        mine = evex.decode(code, addr)
        if mine is not None:
            return mine
        got = next(self.cs.disasm(code, addr, 1), None)
        if got is None:
            raise DecodeError('undecodable bytes %s at %#x' % (code[:4].hex(), addr))
        words = got.mnemonic.split()
        prefixes = {PREFIX_WORDS[w] for w in words[:-1] if w in PREFIX_WORDS}
        if got.prefix[0] == 0xf0:
            prefixes.add('lock')
        ops = [self._operand(got, o) for o in got.operands]
        return Insn(addr, got.size, words[-1], ops, prefixes, ('%s %s' % (got.mnemonic, got.op_str)).strip())

    def _operand(self, got, o):
        name = got.reg_name
        if o.type == cx.X86_OP_REG:
            return Operand('reg', o.size, reg=name(o.reg))
        if o.type == cx.X86_OP_IMM:
            return Operand('imm', o.size, imm=o.imm)
        m = o.mem
        return Operand('mem', o.size, base=name(m.base) if m.base else None, index=name(m.index) if m.index else None,
                       scale=m.scale, disp=m.disp, seg=name(m.segment) if m.segment else None)
