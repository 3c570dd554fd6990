# SPDX-License-Identifier: BSD-3-Clause
"""The instruction table's own test: every instruction model (the forms
of x86/check_forms_base.py and check_forms.py) at every width it is
written for, run one instruction at a time on edge and random registers,
opmasks, flags and memory, against two independent machines:

  unicorn   the emulator (QEMU's x86 translator), for everything it runs:
            the integer instructions, SSE, pushes, pops and jumps
  native    this CPU itself, in x86/native.py's crash-isolated child,
            through its stub that loads every register (zmm0..zmm31 and
            k0..k7 on a CPU with AVX-512F/BW, else ymm0..ymm15) and the
            flags from a block, runs the one instruction and stores them
            back (for what unicorn 2.0 refuses or gets wrong: popcnt,
            lzcnt, BMI, the VEX and EVEX forms); its data end where a page
            nobody may touch begins, so a masked-off element past them must
            not fault; a form needing a feature this CPU lacks is listed,
            not run; instructions that touch %rsp or jump only run under
            unicorn here (the proofs' native check, x86/agree.py, runs
            those too)

Every form must also be an encoding the instruction table accepts
(x86/table.py; the EVEX and opmask forms x86/evex.py's table) that
capstone and objdump read alike (the EVEX and opmask ones: x86/evex.py and
objdump), and every mnemonic of the table must be exercised by a form that
ran: a row no form reaches fails the check, naming it (--coverage checks
these alone, running no instruction).

Where unicorn and the CPU disagree on a case and the CPU agrees with the
model (QEMU propagates SSE NaNs by the x87 rules: divss of an sNaN and a
qNaN), the CPU decides; such forms are listed as notes.

Each case runs through the model twice: with every input a number (the
folding path of smt/bitvec.py) and with every input a z3 variable, the terms
then evaluated on the case (the path a proof takes). Every register, the
flags the manual defines after the instruction (the model's Undef ones are
left out), the 256 bytes of memory its operands reach and where control
goes next must agree.

  python3 -m q7prove.x86.check [--cases N] [--seed S] [--only MNEMONIC]... [--coverage]

Needs gcc (to assemble the cases), python3-unicorn, python3-capstone and
python3-z3: without one, exit 77 with the reason; objdump (binutils) for
the second reading. Exit 1 on any disagreement (each form's first is
printed) or a table mnemonic no form exercises, 0 otherwise.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

from q7prove import requires

z3, _, uc, ux = requires.modules('python3-z3, python3-capstone, python3-unicorn',
                                 'z3', 'capstone', 'unicorn', 'unicorn.x86_const')

from q7prove.smt import bitvec as bv
from q7prove.elf import image as elf_image
from q7prove.x86 import semantics as sem
from q7prove.x86 import native, objdump, table
from q7prove.machine.state import FLAGS, GPRS, REGS, VLEN, Lazy, Machine, State, Undef
from q7prove.machine.memory import Memory, Ptr, Refusal
from q7prove.x86.decode import Decoder, DecodeError
from q7prove.x86.agree import Substitution, concrete
from q7prove.x86.native import FLAG_BITS
from q7prove.x86.placement import gpr_value, vec_value
from q7prove.x86.check_forms_base import forms

# ---- the case and the three machines ---------------------------------------------------

DATA = 256            # bytes of memory the operands reach: [rsi - 64, rsi + 192)
UC_CODE, UC_DATA = 0x400000, 0x800000
NATIVE_CODE, NATIVE_DATA = 0x100000000000, 0x100100000000


def kmask_value(rng, edge, kind=None):
    if kind and kind.startswith('low'):     # only bits below N: a masked access that must stay inside
        return rng.getrandbits(64) & bv.mask(int(kind[3:]))
    if kind and kind.startswith('one'):     # N bits set in all, anywhere (an expand reads N elements)
        bits = rng.sample(range(int(kind[3:]) * 2), int(kind[3:]))
        return sum(1 << b for b in bits)
    if kind == 'ones' or (edge and rng.random() < 0.25):
        return rng.choice([0, bv.mask(64), bv.mask(32), 0xffff, 0xff, 0x5555555555555555, 1 << 63, 1])
    return rng.getrandbits(64)


class Case:
    def __init__(self, form, rng, edge):
        self.gpr = {r: gpr_value(rng, edge, form.pool.get(r)) for r in GPRS}
        self.zmm = [vec_value(rng, edge, form.pool.get('xmm%d' % k, form.pool.get('xmm')), VLEN) for k in range(32)]
        self.k = [kmask_value(rng, edge, form.pool.get('k%d' % j, form.pool.get('k'))) for j in range(8)]
        self.flags = {f: bool(rng.getrandbits(1)) for f in FLAGS if f != 'DF'}
        mem_kind = form.pool.get('mem', form.pool.get('xmm') if form.pool.get('xmm', '').startswith('fp') else None)
        if mem_kind in CONTROL:
            # the word at [rsi + 8] a control value the instruction may load
            self.mem = rng.getrandbits(8 * DATA) & ~(bv.mask(8 * 28) << (8 * 72)) | (CONTROL[mem_kind](rng) << (8 * 72))
        else:
            self.mem = vec_value(rng, edge, mem_kind, 8 * DATA) if mem_kind else rng.getrandbits(8 * DATA)


# MXCSR: the ABI's control bits, any status bits; the x87 control word:
# every exception masked, any precision and rounding; an x87 environment:
# that control word, no exception pending, every register empty
CONTROL = {'mxcsr': lambda rng: 0x1f80 | rng.getrandbits(6),
           'fcw': lambda rng: 0x037f | (rng.getrandbits(4) << 8),
           'x87env': lambda rng: (0x037f | (rng.getrandbits(4) << 8)) | (0xffff << 16) | (0xffff << 64)}


def _host_features():
    """The ISA extensions /proc/cpuinfo lists (lzcnt is Linux's abm)."""
    try:
        with open('/proc/cpuinfo') as f:
            words = set(next((l for l in f if l.startswith('flags')), '').split())
    except OSError:
        words = set()
    return {'bmi1'} & words | ({'lzcnt'} if 'abm' in words else set())


HOST_FEATURES = _host_features()


class ModelExe:
    """What the semantics ask of an executor, for one instruction."""

    def __init__(self, mem):
        self.image_obj = mem.objects['image']

    def jump_to(self, m, target):
        m.next = target.off if isinstance(target, Ptr) else target

    def return_to(self, m, target):
        m.next = target

    def end_path(self, m):
        m.s.done = True

    def also(self, state):
        raise Refusal('splits the path (a stack realigned past 16 bytes): one instruction\'s check runs one')


def model_run(insn, case, symbolic):
    """The model's state after insn, from case (numbers) or fresh variables:
    (state, machine, substitution)."""
    mem = Memory(None)
    mem.new('image', 'image', 0, 4096)
    data = mem.new('data', 'out', DATA, 64)
    sub = [(data.base, z3.BitVecVal(UC_DATA, 64))]
    # tzcnt/lzcnt are modelled for processors with and without their
    # extension: checked here as this processor runs them
    sub += [(z3.Bool('cpu_has_' + f), z3.BoolVal(f in HOST_FEATURES)) for f in ('bmi1', 'lzcnt')]
    s = State(mem, insn.addr)
    for k, r in enumerate(GPRS):
        if symbolic:
            v = z3.BitVec('g_' + r, 64)
            sub.append((v, z3.BitVecVal(case.gpr[r], 64)))
        else:
            v = case.gpr[r]
        s.gpr[k] = v
    s.gpr[GPRS.index('rsi')] = Ptr(data, 64)
    s.gpr[GPRS.index('rsp')] = Ptr(data, 192)
    if case.pool_rdi:
        s.gpr[GPRS.index('rdi')] = Ptr(data, 128)
    if case.pool_rbp:
        s.gpr[GPRS.index('rbp')] = Ptr(data, 160)
    for k in range(32):
        if symbolic:
            v = z3.BitVec('z%d' % k, VLEN)
            sub.append((v, z3.BitVecVal(case.zmm[k], VLEN)))
            s.vec[k] = v
        else:
            s.vec[k] = case.zmm[k]
    for j in range(8):
        if symbolic:
            v = z3.BitVec('k%d' % j, 64)
            sub.append((v, z3.BitVecVal(case.k[j], 64)))
            s.kreg[j] = v
        else:
            s.kreg[j] = case.k[j]
    for f, val in case.flags.items():
        if symbolic:
            v = z3.Bool('f_' + f)
            sub.append((v, z3.BoolVal(val)))
            s.flags[f] = v
        else:
            s.flags[f] = val
    if symbolic:
        v = z3.BitVec('mem', 8 * DATA)
        sub.append((v, z3.BitVecVal(case.mem, 8 * DATA)))
        mem.put(data, 0, v, 8 * DATA)
    else:
        mem.put(data, 0, case.mem, 8 * DATA)
    model_run.initial = {'gpr': list(s.gpr), 'vec': list(s.vec), 'kreg': list(s.kreg),
                         'mem': mem.bytes[('data', 0)][0]}
    mach = Machine(ModelExe(mem), s, insn)
    sem.execute(mach)
    return s, mach, Substitution(sub), data


def model_outcome(insn, case, symbolic):
    """{name: value}: every register, defined flag, memory byte and next
    address (a value the instruction left as it was is the case's own, not
    evaluated again)."""
    try:
        s, mach, sub, data = model_run(insn, case, symbolic)
    except Refusal as e:
        return {'refused': str(e)}
    initial = model_run.initial
    out = {}
    for k, r in enumerate(GPRS):
        v = s.gpr[k]
        out[r] = case.gpr[r] if v is initial['gpr'][k] and not isinstance(v, Ptr) else concrete(v, 64, sub)
    for k in range(32):
        v = s.vec[k]
        out['zmm%d' % k] = case.zmm[k] if v is initial['vec'][k] else concrete(v, VLEN, sub)
    for j in range(8):
        v = s.kreg[j]
        out['k%d' % j] = case.k[j] if v is initial['kreg'][j] else concrete(v, 64, sub)
    for f in FLAGS:
        v = s.flags[f]
        if type(v) is Undef:
            continue
        out[f] = concrete(v.get() if type(v) is Lazy else v, 1, sub)
    for i in range(DATA):
        e = s.mem.bytes.get(('data', i))
        if e is not None and e[0] is initial['mem']:
            out['mem%d' % i] = (case.mem >> (8 * i)) & 0xff
        else:
            out['mem%d' % i] = concrete(bv.extract(e[0], 8 * e[2] + 7, 8 * e[2], e[1]), 8, sub) if e else None
    faults = [concrete(c, 1, sub) for desc, _, c, p in s.owed]
    out['fault'] = any(v is False for v in faults)
    out['fcw'] = concrete(s.fcw, 16, sub)
    if mach.fork is not None:
        c = concrete(mach.fork[0], 1, sub)
        out['next'] = mach.fork[1] if c else mach.next
    else:
        nxt = mach.next
        if type(nxt) is int and nxt == insn.next or type(nxt) is int and insn.form.imms[-1:] in (['cb'], ['cd']):
            out['next'] = nxt
        else:
            out['target'] = concrete(nxt, 64, sub)   # a computed jump's or return's: not moved with the code
    return out


def unicorn_outcome(code, addr, case, repeated=False, faults=False):
    mu = uc.Uc(uc.UC_ARCH_X86, uc.UC_MODE_64)
    mu.mem_map(UC_CODE, 0x2000)
    mu.mem_write(addr, code + b'\x90' * 16)
    mu.mem_map(UC_DATA, 0x1000)
    mu.mem_write(UC_DATA, case.mem.to_bytes(DATA, 'little'))
    regs = dict(case.gpr)
    regs['rsi'], regs['rsp'] = UC_DATA + 64, UC_DATA + 192
    if case.pool_rdi:
        regs['rdi'] = UC_DATA + 128
    if case.pool_rbp:
        regs['rbp'] = UC_DATA + 160
    for r in GPRS:
        mu.reg_write(getattr(ux, 'UC_X86_REG_' + r.upper()), regs[r])
    for k in range(16):
        mu.reg_write(getattr(ux, 'UC_X86_REG_XMM%d' % k), case.zmm[k] & bv.mask(128))
    fl = 0x202
    for f, v in case.flags.items():
        fl |= int(v) << FLAG_BITS[f]
    mu.reg_write(ux.UC_X86_REG_EFLAGS, fl)
    mu.reg_write(ux.UC_X86_REG_FPCW, 0x037f)        # the ABI's, as at a process's start
    mu.reg_write(ux.UC_X86_REG_MXCSR, 0x1f80)
    trapped, fetched = [], []
    mu.hook_add(uc.UC_HOOK_INTR, lambda mu, n, _: (trapped.append(n), mu.emu_stop()))
    # a jump out of the mapped code: where it went, not a fault of the jump
    mu.hook_add(uc.UC_HOOK_MEM_FETCH_UNMAPPED, lambda mu, acc, a_, size, v, _: fetched.append(a_) and False)
    out = {}
    try:
        # one instruction (a rep one runs to its end)
        mu.emu_start(addr, addr + len(code), count=0 if repeated else 1)
    except uc.UcError as e:
        if e.errno == uc.UC_ERR_INSN_INVALID and not faults:
            return None
        if not fetched:
            out['fault'] = True
            return out
    if trapped:
        out['fault'] = True
        return out
    out['fault'] = False
    out['fcw'] = mu.reg_read(ux.UC_X86_REG_FPCW)
    for r in GPRS:
        out[r] = mu.reg_read(getattr(ux, 'UC_X86_REG_' + r.upper()))
    for k in range(8):   # unicorn 2.0.1 keeps only 64 bits of xmm8..xmm15: the forms use xmm0..xmm7
        out['xmm%d' % k] = mu.reg_read(getattr(ux, 'UC_X86_REG_XMM%d' % k))
    fl = mu.reg_read(ux.UC_X86_REG_EFLAGS)
    for f, b in FLAG_BITS.items():
        out[f] = bool(fl >> b & 1)
    mem = mu.mem_read(UC_DATA, DATA)
    for i in range(DATA):
        out['mem%d' % i] = mem[i]
    out['next'] = fetched[0] if fetched else mu.reg_read(ux.UC_X86_REG_RIP)
    return out


def native_outcomes(runner, code, addr, cases):
    """The CPU's outcome of each case, as unicorn_outcome gives it: the
    form's bytes run by x86/native.py's child at an address with addr's
    offset in its page, its data where %rsi points, 64 bytes in, ending
    where an unmapped page begins (a masked-off element past them must not
    fault; a fault ends that case, not the check)."""
    stub = runner.ensure()
    x = NATIVE_CODE + (addr & (native.PAGE - 1))
    data = NATIVE_DATA + native.PAGE - DATA
    pages = [(p, b, native.PROT_READ | native.PROT_EXEC) for p, b in sorted(native.code_pages(stub, x, code).items())]
    pages.append((NATIVE_DATA, bytes(native.PAGE), native.PROT_READ | native.PROT_WRITE))
    job = []
    for case in cases:
        regs = dict(case.gpr)
        regs['rsi'], regs['rsp'] = data + 64, data + 192
        if case.pool_rdi:
            regs['rdi'] = data + 128
        job.append({'block': native.block_bytes([regs[r] for r in GPRS], native.rflags_of(case.flags), case.zmm, x,
                                                case.k),
                    'writes': [(data, case.mem.to_bytes(DATA, 'little'))], 'reads': [(data, DATA)]})
    outs = []
    for res in runner.run(pages, job):
        b = native.read_block(res['block']) if 'block' in res else None
        if b is None or b['signal']:
            outs.append(({'fault': True}, x - addr))
            continue
        out = {'fault': False}
        for k, r in enumerate(GPRS):
            if r != 'rsp':
                out[r] = b['gpr'][k]
        for f, bit in FLAG_BITS.items():
            out[f] = bool(b['rflags'] >> bit & 1)
        if 'zmm' in b:
            out.update(('zmm%d' % k, v) for k, v in enumerate(b['zmm']))
            out.update(('k%d' % j, v) for j, v in enumerate(b['k']))
        else:
            out.update(('ymm%d' % k, v) for k, v in enumerate(b['ymm']))
        for i in range(DATA):
            out['mem%d' % i] = res['reads'][0][i]
        out['next'] = native.landing_address(b['exit'], x, len(code), None, None)
        outs.append((out, x - addr))
    return outs


CPU = native.cpu_flags()


# ---- building and comparing ---------------------------------------------------------

def build(all_forms, tmp):
    src = ['.intel_syntax noprefix', '.text']
    for k, f in enumerate(all_forms):
        src += ['.p2align 6', '.globl insn_%d' % k, 'insn_%d:' % k, f.text, '.fill 48, 1, 0xcc']
    path = os.path.join(tmp, 'cases.s')
    with open(path, 'w') as fh:
        fh.write('\n'.join(src) + '\n')
    lib = os.path.join(tmp, 'cases.so')
    r = subprocess.run(['gcc', '-shared', '-nostdlib', '-Wl,-z,noexecstack', '-o', lib, path],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('check-instructions: the cases do not assemble:\n' + r.stderr[-3000:])
    return lib


def compare(name, model, oracle, addr_shift):
    """The first key where the model and the oracle differ, or None."""
    for k, want in oracle.items():
        got_key = 'zmm' + k[3:] if k[:3] in ('xmm', 'ymm') else k
        if k == 'next' and 'target' in model:
            got_key, addr_shift = 'target', 0
        if got_key not in model:
            continue
        got = model[got_key]
        if got is None:
            continue                      # the model leaves it unknown (an undefined result)
        if k[:3] in ('xmm', 'ymm'):
            got &= bv.mask(128 if k[0] == 'x' else 256)
        if k == 'next':
            got += addr_shift
        if k in ('rsi', 'rsp', 'rdi', 'rbp') and isinstance(got, int) and 'native' in name:
            continue
        if got != want:
            return k, got, want
    return None


def shown_inputs(text, case):
    """The case's registers the instruction names, its flags and its memory operand's first bytes."""
    words = text.replace(',', ' ').replace('[', ' ').replace(']', ' ').split()
    shown = ['%s=%#x' % (r, case.gpr[r]) for r in GPRS if any(w in REGS_OF[r] for w in words)]
    shown += ['%s=%#x' % (w, case.zmm[int(w[3:])] & bv.mask({'x': 128, 'y': 256, 'z': 512}[w[0]]))
              for w in words if w[:3] in ('xmm', 'ymm', 'zmm') and w[3:].isdigit()]
    shown += ['%s=%#x' % (w, case.k[int(w[1:])]) for w in words if len(w) == 2 and w[0] == 'k' and w[1].isdigit()]
    shown.append('flags=' + ''.join(f for f, v in sorted(case.flags.items()) if v))
    if 'ptr' in words:
        shown.append('mem[rsi+0..32)=%#x' % ((case.mem >> (8 * 64)) & bv.mask(256)))
    return ' '.join(shown)


REGS_OF = {r: {n for n, (f, i, lo, w) in REGS.items() if f == 'g' and i == k}
           for k, r in enumerate(GPRS)}


def accepted(all_forms, img, dec):
    """{form index: Insn} of the forms the table accepts and both decoders
    read alike; the others printed, each with its reason."""
    insns, out = [], {}
    for k, f in enumerate(all_forms):
        try:
            insn = dec.at(img.by_name['insn_%d' % k].value)
        except DecodeError as e:
            print('check-instructions: %s: refused: %s' % (f.text, e))
            continue
        if insn.form is None:
            print('check-instructions: %s: the instruction table refuses it: %s (%s)'
                  % (f.text, insn.unaccepted, insn.shown()))
        else:
            insns.append((k, insn))
    for (k, insn), why in zip(insns, dec.second.compare([i for _, i in insns])):
        if why:
            print('check-instructions: %s: %s' % (all_forms[k].text, why))
        else:
            out[k] = insn
    return out


def sweep(path):
    """Every instruction objdump's linear sweep finds in the library at
    path that the table accepts, read by capstone and the table and
    compared with objdump's reading: the number of disagreements, each
    printed."""
    img = elf_image.Image(path)
    dec = Decoder(img)
    lines, err = dec.second.sweep(path)
    if lines is None:
        print('check-instructions: objdump cannot read %s: %s' % (path, err))
        return 1
    seen = accepted_n = bad = 0
    for addr in sorted(lines):
        if not img.executable(addr):
            continue
        seen += 1
        try:
            insn = dec.at(addr)
        except DecodeError:
            continue
        if insn.form is None:
            if insn.enc is not None:        # the table took it, capstone read it otherwise
                bad += 1
                print('check-instructions: %s: %s at %#x (%s)' % (path, insn.unaccepted, addr, insn.shown()))
            continue
        accepted_n += 1
        why = objdump.compare_one(insn, addr, lines[addr])
        if why:
            bad += 1
            print('check-instructions: %s: %s' % (path, why))
    print('check-instructions: %s: %d instructions, %d of them encodings the table accepts, %d read differently '
          'by objdump' % (path, seen, accepted_n, bad))
    return bad


def coverage(exercised):
    """The table's mnemonics no form exercised, each printed: their number."""
    missing = 0
    for row in table.TABLE:
        for name in row.names:
            if (id(row), name) not in exercised:
                missing += 1
                print('check-instructions: the table\'s %s (%s) is exercised by no form'
                      % (name, ', '.join(x.spec for x in row.encodings)))
    return missing


def main():
    ap = argparse.ArgumentParser(prog='python3 -m q7prove.x86.check')
    ap.add_argument('--cases', type=int, default=4)
    ap.add_argument('--seed', type=int, default=11)
    ap.add_argument('--only', action='append', default=[])
    ap.add_argument('--sweep', action='append', default=[], metavar='LIB',
                    help='only read every instruction of LIB by the table, capstone and objdump: they must agree')
    ap.add_argument('--coverage', action='store_true',
                    help='only decode the forms: each accepted by the table and read alike by capstone and '
                         'objdump, every table mnemonic reached by a form a machine can run')
    a = ap.parse_args()
    if a.sweep:
        return 1 if sum(sweep(p) for p in a.sweep) else 0
    if not shutil.which('gcc'):
        print('skipped: needs gcc to assemble the cases')
        return 77
    all_forms = [f for f in forms() if not a.only or f.mnemonic in a.only]
    rng = random.Random(a.seed)
    bad = total = refused = 0
    checked_by = {'unicorn': 0, 'native': 0}
    unchecked = []
    exercised = set()   # (row, mnemonic) a form ran through the model and a machine
    deviations = {}     # form -> unicorn's first disagreement where the CPU sides with the model
    not_here = []       # forms no machine here can run: this CPU lacks a feature they need
    runner = native.Runner()
    try:
        runner.ensure()
    except native.Unavailable as e:
        print('skipped: %s' % e)
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        lib = build(all_forms, tmp)
        img = elf_image.Image(lib)
        dec = Decoder(img)
        good = accepted(all_forms, img, dec)
        bad += len(all_forms) - len(good)
        if a.coverage:
            for k, insn in good.items():
                if all_forms[k].native or all_forms[k].unicorn:
                    exercised.add((id(insn.form.row), insn.mnemonic))
            missing = coverage(exercised)
            print('check-instructions: %d forms decoded, %d refused or read differently, %d table mnemonics '
                  'exercised by none' % (len(all_forms), bad, missing))
            return 1 if bad or missing else 0
        for k, f in enumerate(all_forms):
            if k not in good:
                continue
            addr = img.by_name['insn_%d' % k].value
            insn = good[k]
            code = img.bytes_at(addr, insn.size)
            missing = [n for n in f.needs if n not in CPU]
            ran = False
            first = None
            cases = []
            for c in range(a.cases):
                case = Case(f, rng, edge=c % 2 == 0)
                case.pool_rdi = f.pool.get('rdi') == 'data'
                case.pool_rbp = f.pool.get('rbp') == 'stack'
                cases.append(case)
            natives = native_outcomes(runner, code, addr, cases) if f.native else [None] * len(cases)
            for case, nat in zip(cases, natives):
                oracles = []
                if f.unicorn:
                    o = unicorn_outcome(code, UC_CODE + (addr & 0xfff), case, 'rep' in insn.prefixes, f.faults)
                    if o is not None:
                        oracles.append(('unicorn', o, UC_CODE + (addr & 0xfff) - addr))
                if nat is not None:
                    oracles.append(('native',) + nat)
                if not oracles:
                    break
                ran = True
                for symbolic in (False, True):
                    model = model_outcome(insn, case, symbolic)
                    if 'refused' in model:
                        refused += 1
                        continue
                    exercised.add((id(insn.form.row), insn.mnemonic))
                    diffs = {}
                    for oname, o, shift in oracles:
                        checked_by[oname] += 1
                        total += 1
                        if o.get('fault') and model.get('fault'):
                            continue
                        diffs[oname] = ('fault', model.get('fault'), o.get('fault')) \
                            if o.get('fault') != model.get('fault') else compare(oname, model, o, shift)
                    if diffs.get('unicorn') and 'native' in diffs and not diffs['native']:
                        # the CPU itself agrees with the model: unicorn is the one that differs
                        # (QEMU propagates SSE NaNs by the x87 rules)
                        deviations.setdefault(f.text, (diffs['unicorn'], case))
                        continue
                    for oname, diff in diffs.items():
                        if diff and first is None:
                            first = (oname, symbolic, diff, case)
            if not ran and missing:
                not_here.append('%s (%s)' % (f.text, ' '.join(missing)))
            elif not ran:
                unchecked.append(f.text)
            if first:
                bad += 1
                oname, symbolic, (key, got, want), case = first
                print('check-instructions: %s: %s (%s inputs) %s: model %s, %s %s; %s'
                      % (f.text, oname, 'symbolic' if symbolic else 'numeric', key,
                         hex(got) if isinstance(got, int) and not isinstance(got, bool) else got, oname,
                         hex(want) if isinstance(want, int) and not isinstance(want, bool) else want,
                         shown_inputs(f.text, case)))
    runner.close()
    for t in unchecked:
        print('check-instructions: %s: no machine ran it' % t)
    for t in not_here:
        print('check-instructions: note: %s: not run, this CPU lacks the feature' % t)
    for t, ((key, got, want), case) in deviations.items():
        print('check-instructions: note: %s: unicorn differs from this CPU, which agrees with the model (%s: '
              'CPU and model %s, unicorn %s; %s)' % (t, key, hex(got) if isinstance(got, int) else got,
                                                    hex(want) if isinstance(want, int) else want,
                                                    shown_inputs(t, case)))
    missing = 0 if a.only else coverage(exercised)
    print('check-instructions: %d forms of %d mnemonics, %d comparisons (%d unicorn, %d native), %d refused, '
          '%d forms disagree, %d unchecked, %d where unicorn alone differs, %d table mnemonics exercised by none, '
          '%d not run on this CPU'
          % (len(all_forms), len({f.mnemonic for f in all_forms}), total, checked_by['unicorn'], checked_by['native'],
             refused, bad, len(unchecked), len(deviations), missing, len(not_here)))
    return 1 if bad or unchecked or missing else 0


if __name__ == '__main__':
    sys.exit(main())
