# SPDX-License-Identifier: BSD-3-Clause
"""The second decoder: binutils' objdump (GNU opcodes, which shares no
code with capstone), on the exact bytes of instructions capstone read.

One objdump process reads a batch: each instruction's bytes followed by
16 bytes of 0x90, so that whatever objdump makes of one instruction, it is
back in step before the next (an instruction has at most 15 bytes). Its
Intel-syntax reading of each is compared with capstone's, after the two
syntaxes are brought to one form:

  length     the bytes objdump takes for the instruction
  operation  the mnemonic (objdump's `movs DWORD PTR` is capstone's movsd,
             its `fwait` capstone's wait); prefix words objdump prints
             (data16, repz, notrack, cs, bnd ...) set aside, the repeat of
             a string operation compared
  operands   registers by name; immediates as the operand-size bits they
             give; a relative branch by its displacement (the target less
             the next instruction's address); memory by size (where
             objdump names one), fs/gs (the segments 64-bit mode does not
             ignore), base, index, scale and displacement
"""
import os
import re
import shutil
import subprocess
import tempfile

PAD = 16
MASK64 = (1 << 64) - 1
SIZES = {'BYTE': 1, 'WORD': 2, 'DWORD': 4, 'QWORD': 8, 'TBYTE': 10, 'XMMWORD': 16, 'YMMWORD': 32,
         'ZMMWORD': 64, 'FWORD': 6, 'OWORD': 16}
PREFIX_WORDS = {'data16', 'data32', 'addr32', 'addr16', 'lock', 'rep', 'repz', 'repe', 'repnz', 'repne', 'bnd',
                'notrack', 'cs', 'ds', 'es', 'ss', 'fs', 'gs', 'xacquire', 'xrelease', '{vex}', '{vex3}'}
STRING = {'movs', 'stos', 'lods', 'cmps', 'scas', 'ins', 'outs'}
SUFFIX = {1: 'b', 2: 'w', 4: 'd', 8: 'q'}
LINE = re.compile(r'^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$')
MISSING = 'no second decoder: objdump (binutils) is not installed, so no instruction is read twice'


class Objdump:
    def __init__(self, path=None):
        self.path = path or shutil.which('objdump')

    def compare(self, insns):
        """For each decode.Insn: None where objdump reads it as capstone
        does, else the disagreement (both readings)."""
        if not self.path:
            return [MISSING] * len(insns)
        blob, offsets = bytearray(), []
        for i in insns:
            offsets.append(len(blob))
            blob += i.raw + b'\x90' * PAD
        lines, err = self._run(bytes(blob))
        if lines is None:
            return ['the second decoder failed: %s' % err] * len(insns)
        out = []
        for i, off in zip(insns, offsets):
            got = lines.get(off)
            out.append(_compare(i, off, got))
        return out

    def sweep(self, path):
        """{address: (length, text)} of objdump's own linear sweep of a
        file's code (None, and the reason, when it fails)."""
        try:
            r = subprocess.run([self.path, '-d', '-z', '-M', 'intel', '--insn-width=16', path],
                               capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, str(e)
        if r.returncode:
            return None, 'objdump exited %d: %s' % (r.returncode, r.stderr.strip()[:200])
        return _lines(r.stdout), None

    def _run(self, blob):
        fd, path = tempfile.mkstemp(prefix='q7prove-', suffix='.bin')
        try:
            with os.fdopen(fd, 'wb') as f:
                f.write(blob)
            try:
                r = subprocess.run([self.path, '-D', '-z', '-b', 'binary', '-m', 'i386:x86-64', '-M', 'intel',
                                    '--insn-width=16', path], capture_output=True, text=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired) as e:
                return None, str(e)
            if r.returncode:
                return None, 'objdump exited %d: %s' % (r.returncode, r.stderr.strip()[:200])
        finally:
            os.unlink(path)
        return _lines(r.stdout), None


def _lines(out):
    lines = {}
    for ln in out.splitlines():
        m = LINE.match(ln)
        if m:
            text = ' '.join((m.group(3) or '').split('#')[0].split())
            lines[int(m.group(1), 16)] = (len(m.group(2).split()), text)
    return lines


# ---- one form for both readings: (mnemonic, rep, [operand]) where an
# operand is ('reg', name), ('imm', value) or ('mem', size|None, seg, base, index, scale, disp)

def compare_one(insn, off, got):
    """insn (decode.Insn) against objdump's (length, text) of the same
    bytes at off: None, or the disagreement."""
    return _compare(insn, off, got)


def _compare(insn, off, got):
    ours = 'capstone %s (%d bytes)' % (insn.text, insn.size)
    if got is None:
        return 'objdump reads no instruction at the start of %s; %s' % (insn.shown(), ours)
    n, text = got
    if hasattr(insn, 'zeroing'):       # x86/evex.py's reading (capstone 4 cannot read these)
        if n == insn.size and evex_text(insn) == objdump_text(text):
            return None
        return 'x86/evex.py and objdump disagree on %s at %#x: %s (%d bytes), objdump %s (%d bytes)' % (
            insn.shown(), insn.addr, evex_text(insn), insn.size, text, n)
    theirs = 'objdump %s (%d bytes)' % (text, n)
    both = 'capstone and objdump disagree on %s at %#x: %s, %s' % (insn.shown(), insn.addr, ours, theirs)
    if n != insn.size:
        return both
    try:
        o = objdump_form(text, off + n)
    except ValueError:
        return both
    c = capstone_form(insn)
    if not same(c, o, insn):
        return both
    return None


# ---- x86/evex.py's reading in objdump's spelling (EVEX and opmask instructions)

PTR = {1: 'byte', 2: 'word', 4: 'dword', 8: 'qword', 16: 'xmmword', 32: 'ymmword', 64: 'zmmword'}


def objdump_text(text):
    t = text.split('#')[0].strip().lower().replace(' ', '')
    return re.sub(r'\+0x0\]', ']', t)


def evex_text(insn):
    """The operands as objdump writes them: the writemask and {z} after the
    destination, a broadcast as `dword bcst`, a vpcmp predicate in the name."""
    mn = insn.mnemonic
    ops = []
    for k, o in enumerate(insn.ops):
        if o.kind == 'reg':
            s = o.reg
        elif o.kind == 'imm':
            s = hex(o.imm)
        else:
            addr = o.base or ''
            if o.index:
                addr += ('+' if addr else '') + '%s*%d' % (o.index, o.scale)
            if o.disp or not addr:
                addr += ('-%#x' % -o.disp) if o.disp < 0 else ('+' if addr else '') + hex(o.disp)
            if o.base == 'rip':
                addr = 'rip+%#x' % o.disp if o.disp >= 0 else 'rip-%#x' % -o.disp
            s = '%s%s[%s]' % (PTR[o.size], 'bcst' if insn.bcast else 'ptr', addr)
        if k == 0 and insn.mask:
            s += '{%s}%s' % (insn.mask, '{z}' if insn.zeroing else '')
        ops.append(s)
    pred = re.match(r'^vpcmp(u?)([bwdq])$', mn)
    if pred and insn.ops[-1].kind == 'imm' and insn.ops[-1].imm in (0, 1, 2, 4, 5, 6):
        name = ['eq', 'lt', 'le', '', 'neq', 'nlt', 'nle'][insn.ops[-1].imm]
        mn = 'vpcmp%s%s%s' % (name, pred.group(1), pred.group(2))
        ops = ops[:-1]
    return (mn + ' ' + ','.join(ops)).strip().replace(' ', '')


def capstone_form(insn):
    ops = []
    for op in insn.ops:
        if op.kind == 'reg':
            ops.append(('reg', op.reg))
        elif op.kind == 'imm':
            ops.append(('imm', op.imm & ((1 << (8 * op.size)) - 1), op.size))
        else:
            seg = op.seg if op.seg in ('fs', 'gs') else None
            ops.append(('mem', op.size, seg, op.base, op.index, op.scale if op.index else 1, op.disp & MASK64))
    return insn.mnemonic, 'rep' in insn.prefixes and insn.mnemonic[:4] in STRING, ops


def objdump_form(text, next_off):
    """(mnemonic, repeat, operands) of an objdump line; ValueError if unreadable."""
    symbolic = '<' in text           # objdump -d: a branch target in bare hex, then <symbol+offset>
    text = text.split('#')[0].split('<')[0].strip()
    if symbolic and re.search(r'[ ,]([0-9a-f]+)$', text):
        text = re.sub(r'([ ,])([0-9a-f]+)$', r'\g<1>0x\2', text)
    words = text.split(None, 1)
    rep = False
    while words and (words[0] in PREFIX_WORDS or words[0].startswith('rex')):
        rep = rep or words[0] in ('rep', 'repz', 'repe')
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:
        raise ValueError(text)
    mnemonic = words[0]
    ops = [_operand(t.strip()) for t in words[1].split(',')] if len(words) > 1 else []
    if mnemonic in STRING:
        size = next((o[1] for o in ops if o[0] == 'mem'), None)
        mnemonic += SUFFIX.get(size, '?')
    mnemonic = {'fwait': 'wait'}.get(mnemonic, mnemonic)
    return mnemonic, rep and mnemonic[:4] in STRING, ops, next_off


MEM = re.compile(r'^(?:(\w+) PTR )?(?:([cdefgs]s):)?(\[[^\]]*\]|0x[0-9a-f]+)$')


def _operand(t):
    m = MEM.match(t)
    if m and (m.group(3).startswith('[') or m.group(2)):
        size = SIZES[m.group(1)] if m.group(1) else None
        seg = m.group(2) if m.group(2) in ('fs', 'gs') else None
        body = m.group(3)
        base = index = None
        scale, disp = 1, 0
        if body.startswith('['):
            for sign, term in re.findall(r'([+-]?)([^+-]+)', body[1:-1]):
                if '*' in term:
                    r, k = term.split('*')
                    if r not in ('riz', 'eiz'):
                        index, scale = r, int(k)
                elif term.startswith('0x') or term.isdigit():
                    disp += (-1 if sign == '-' else 1) * int(term, 0)
                elif term in ('riz', 'eiz'):
                    pass
                else:
                    base = term
        else:
            disp = int(body, 16)
        return ('mem', size, seg, base, index, scale, disp & MASK64)
    if re.match(r'^-?(0x[0-9a-f]+|[0-9]+)$', t):
        return ('imm', int(t, 0))
    if re.match(r'^[a-z][a-z0-9()]*$', t):
        return ('reg', t)
    raise ValueError(t)


def same(c, o, insn):
    cm, crep, cops = c
    om, orep, oops, next_off = o
    if cm == 'nop' and not cops and om == 'xchg' and len(oops) == 2 and oops[0] == oops[1]:
        return True                     # 66 90: objdump's xchg ax,ax
    if om in ('pblendvb', 'blendvps', 'blendvpd') and oops[-1:] == [('reg', 'xmm0')]:
        oops = oops[:-1]        # the legacy form's implied xmm0: objdump writes it, capstone does not
    if cm != om or crep != orep or len(cops) != len(oops):
        return False
    if _operands_equal(cops, oops, insn, next_off):
        return True
    return cm == 'xchg' and _operands_equal(cops[::-1], oops, insn, next_off)


def _operands_equal(cops, oops, insn, next_off):
    relative = insn.form is not None and any(t in ('cb', 'cd') for t in insn.form.imms)
    for c, o in zip(cops, oops):
        if c[0] != o[0]:
            return False
        if c[0] == 'reg' and c[1] != o[1]:
            return False
        if c[0] == 'imm':
            mask = (1 << (8 * c[2])) - 1
            if relative:
                if (c[1] - insn.next) & mask != (o[1] - next_off) & mask:
                    return False
            elif c[1] != o[1] & mask:
                return False
        if c[0] == 'mem':
            if o[1] is not None and c[1] != o[1]:
                return False
            if c[2:] != o[2:]:
                return False
    return True
