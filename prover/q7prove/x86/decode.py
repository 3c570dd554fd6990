# SPDX-License-Identifier: BSD-3-Clause
"""The x86-64 decoder front. Each instruction the proof reaches is read
three ways, none trusted alone:

  encoding  its bytes read by x86/encoding.py and looked up in the
            instruction table (x86/table.py): prefixes, REX, VEX, opcode
            map and opcode, ModRM, immediates and the length; the row
            picks the model, and a prefix or encoding no row defines
            is refused by name
  capstone  the operands (registers, immediates, memory references with
            their sizes, in Intel order: destination first); it must read
            the same length and a mnemonic of the row
  objdump   binutils' decoder (x86/objdump.py), on every instruction one
            leaf reached, in one batch after the leaf's run (cross_check)

The EVEX instructions and the VEX opmask ones (k...) are x86/evex.py's:
its own table of the encodings x86/avx512.py models, refusing any other
byte pattern or field by name; capstone 4 cannot read them, so their
second reading is objdump's alone.

An instruction where they disagree is refused (the leaf unproven), naming
the bytes and every reading.
"""
import capstone
from capstone import x86 as cx

from q7prove.x86 import objdump, table
from q7prove.x86.encoding import PREFIX_NAME, hexbytes

CAPSTONE_PREFIX_WORDS = {'rep': 'rep', 'repe': 'rep', 'repz': 'rep', 'repne': 'repne', 'repnz': 'repne',
                         'lock': 'lock', 'bnd': 'bnd', 'notrack': 'notrack'}


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
    """One instruction: capstone's mnemonic, operands and text; raw its
    bytes; enc the table's reading of them (x86/encoding.Encoding) and
    form the table's encoding (x86/table.Enc; form.row the row), or form
    None and unaccepted the reason; prefixes the legacy prefixes beyond
    the opcode's mandatory one, by name ('rep', 'osize', 'fs', ...)."""
    __slots__ = ('addr', 'size', 'next', 'mnemonic', 'ops', 'prefixes', 'text', 'raw', 'enc', 'form', 'unaccepted')

    def __init__(self, addr, size, mnemonic, ops, prefixes, text, raw=b'', enc=None, form=None, unaccepted=None):
        self.addr, self.size, self.next = addr, size, addr + size
        self.mnemonic, self.ops, self.prefixes, self.text = mnemonic, ops, prefixes, text
        self.raw, self.enc, self.form, self.unaccepted = raw, enc, form, unaccepted

    def shown(self):
        return hexbytes(self.raw)


class DecodeError(Exception):
    pass


class Decoder:
    """Instructions of an elf_image.Image by address, decoded once."""

    def __init__(self, image):
        self.image = image
        self.cs = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
        self.cs.detail = True
        self.cache = {}
        self.second = objdump.Objdump()
        self.verdicts = {}      # address -> None (objdump agrees) or the disagreement

    def at(self, addr):
        insn = self.cache.get(addr)
        if insn is None:
            insn = self.cache[addr] = self._decode(addr)
        return insn

    def _decode(self, addr):
        if not self.image.executable(addr):
            raise DecodeError('jumps to %s, which is not code' % self.image.where(addr))
        seg = self.image.segment_of(addr)
        # one byte past the 15 an instruction may have: an over-long one is seen as such; the
        # bytes as loaded, up to the first one the loader or a constructor changed (code_problem names it)
        code = self.image.code_at(addr, min(16, seg[0] + seg[1] - addr))
        mine = _evex(code, addr)
        if mine is not None:
            problem = self.image.code_problem(addr, mine.size)
            if problem:
                raise DecodeError(problem)
            return mine
        norow, length = False, None
        try:
            enc, form = table.lookup(code)
            why = None
        except table.Unaccepted as e:
            enc, form, why = None, None, str(e)
            norow, length = e.norow, e.length
        got = next(self.cs.disasm(code[:15], addr, 1), None)
        if got is None:
            problem = self.image.code_problem(addr, min(15, seg[0] + seg[1] - addr))
            if problem:
                raise DecodeError(problem)
            if why:
                raise DecodeError('%s at %#x (%s; capstone cannot decode it)'
                                  % (why, addr, hexbytes(code[:length or 16])))
            raise DecodeError('undecodable bytes %s at %#x' % (hexbytes(code[:4]), addr))
        problem = self.image.code_problem(addr, got.size)
        if problem:
            raise DecodeError(problem)
        words = got.mnemonic.split()
        mnemonic = words[-1]
        if form is None and norow:
            # capstone's name for it, and what the table has of its opcode
            rows = why[why.index(' (its rows'):] if ' (its rows' in why else ''
            why = 'unmodelled instruction %s%s' % (mnemonic, rows)
        text = ('%s %s' % (got.mnemonic, got.op_str)).strip()
        if form is not None:
            why = _disagreement(enc, form, got, mnemonic, words)
            if why:
                form = None
        raw = code[:enc.length] if enc is not None and enc.length else code[:length or got.size]
        prefixes = set()
        if enc is not None:
            mandatory = form.mandatory if form is not None and not form.vex else None
            prefixes = {PREFIX_NAME[b] for b in enc.legacy if b != mandatory}
        ops = [self._operand(got, o) for o in got.operands]
        if form is not None and form.row.mem:
            for o in ops:
                if o.kind == 'mem':
                    o.size = form.row.mem
        return Insn(addr, got.size, mnemonic, ops, prefixes, text, raw, enc, form, why)

    def _operand(self, got, o):
        name = got.reg_name
        if o.type == cx.X86_OP_REG:
            return Operand('reg', o.size, reg=name(o.reg))
        if o.type == cx.X86_OP_IMM:
            return Operand('imm', o.size, imm=o.imm)
        m = o.mem
        return Operand('mem', o.size, base=name(m.base) if m.base else None, index=name(m.index) if m.index else None,
                       scale=m.scale, disp=m.disp, seg=name(m.segment) if m.segment else None)

    # ---- the second decoder
    def cross_check(self, addrs):
        """objdump's reading of every address in addrs (those not read
        before in one batch) against capstone's: the first disagreement,
        or None when they all agree."""
        todo = sorted(a for a in set(addrs) if a not in self.verdicts)
        if todo:
            insns = [self.cache[a] for a in todo]
            for a, v in zip(todo, self.second.compare(insns)):
                self.verdicts[a] = v
        for a in sorted(set(addrs)):
            if self.verdicts[a]:
                return self.verdicts[a]
        return None


class EvexForm:
    """What a table row's encoding is to the rest of the prover, for an
    instruction of x86/evex.py's table: its model (x86/avx512.py)."""
    imms, vex, mandatory, mem, allow, feature = (), True, None, None, frozenset(), None

    def __init__(self, model, spec):
        self.row, self.model, self.spec = self, model, spec


def _evex(code, addr):
    """The EVEX or VEX opmask instruction at the start of code (x86/evex.py
    decodes it), None for any other; DecodeError for one it refuses or
    whose mnemonic x86/avx512.py has no model of."""
    from q7prove.x86 import avx512, evex     # they import this module
    insn = evex.decode(code[:15], addr)
    if insn is None:
        return None
    model = avx512.MODELS.get(insn.mnemonic)
    if model is None:
        raise DecodeError('unmodelled instruction %s (EVEX/opmask) at %#x (%s)'
                          % (insn.mnemonic, addr, hexbytes(code[:insn.size])))
    insn.raw = code[:insn.size]
    insn.form = EvexForm(model, 'EVEX/opmask %s' % insn.mnemonic)
    return insn


def _disagreement(enc, form, got, mnemonic, words):
    """Where capstone's reading differs from the table's, or None."""
    if got.size != enc.length:
        return ('capstone reads %d bytes (%s %s), the table\'s %s %d'
                % (got.size, got.mnemonic, got.op_str, _what(enc, form), enc.length))
    if not form.row.accepts(mnemonic, enc):
        return 'capstone reads %s, but the bytes are the table\'s %s' % (got.mnemonic, _what(enc, form))
    cs_words = {CAPSTONE_PREFIX_WORDS.get(w) for w in words[:-1]}
    if 'rep' in form.allow and ('rep' in cs_words) != (0xf3 in enc.legacy):
        return 'capstone reads %s, without the f3 (rep) of the bytes\' %s' % (got.mnemonic, _what(enc, form)) \
            if 0xf3 in enc.legacy else 'capstone reads %s, but the bytes have no f3 (rep)' % got.mnemonic
    return None


def _what(enc, form):
    row = form.row
    return '%s (%s)' % (row.names[enc.opcode & 15] if row.cc else row.names[0], form.spec)
