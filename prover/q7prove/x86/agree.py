# SPDX-License-Identifier: BSD-3-Clause
"""The model agrees with this CPU on the very bytes a proof used.

Each distinct instruction encoding a proof reached is run natively
(x86/native.py: a crash-isolated child, the exact bytes at an address of
their own) on edge and random states, and its model (x86/semantics.py runs it, on
the symbolic machine) is stepped from the same states: once with every
input a number and on some states with the inputs z3 variables, the terms
then evaluated. Every register, every flag the model defines after it
(the ones it leaves Undef, which the manuals leave undefined, are not
compared), the vector registers (zmm0..31 and k0..7 on a CPU with
AVX-512F/BW; else ymm0..15, and an EVEX or opmask instruction is not
checked, so the leaf is unproven), the x87 control word, MXCSR's control
bits, the bytes around each memory operand and the stack, where control
goes next and whether it faults must agree; a write outside those bytes
on either side is a disagreement too.

Where a state puts the instruction, its landings and its operands is
x86/placement.py's. A state the model refuses is not compared; fewer than half the states
compared is itself a reason the encoding is not checked.

A fault is a disagreement when one side faults and the other does not
(the model's faults: a divide error, an alignment fault, a trap
instruction); where the model reports an access the memory model forbids
and the CPU faults too, they agree; where the CPU runs it, they do not.
"""
import argparse
import random
import sys

import z3
from z3.z3 import _to_expr_ref
from z3.z3core import Z3_mk_numeral, Z3_substitute
from z3.z3types import Ast

from q7prove.smt import bitvec as bv
from q7prove.x86 import native
from q7prove.x86 import placement
from q7prove.x86.placement import GPRS, gpr_of
from q7prove.x86 import semantics as sem
from q7prove.machine.state import FLAGS, VLEN, Lazy, Machine, State, Undef
from q7prove.machine.memory import External, Memory, Ptr, Refusal

CASES = 8
SYMBOLIC = (0, 5)                # the states also run with z3 variables

CANARY_BASE = 0x7f0000000000     # the model's canary object's base (its bytes are the child's canary)
CPU_FAULTS = ('divides', 'faults', 'reaches')   # the model's descriptions of what the CPU itself faults on


# ---- evaluating the model's terms on a state -----------------------------------------

class Substitution:
    """Pairs (variable, value) applied to a term: z3.substitute(t, *pairs)
    with the pairs' C arrays made once, not on every call, and without its
    Python-side check of each pair's sorts on every call (which took most
    of the checks' time); z3's Z3_substitute checks them itself."""

    def __init__(self, pairs):
        self.pairs = pairs          # the arrays below hold no references of their own
        self.src = (Ast * len(pairs))(*[a.as_ast() for a, _ in pairs])
        self.dst = (Ast * len(pairs))(*[b.as_ast() for _, b in pairs])

    def __call__(self, t):
        return _to_expr_ref(Z3_substitute(t.ctx.ref(), t.as_ast(), len(self.pairs), self.src, self.dst), t.ctx)


def concrete(v, w, sub):
    """A model value as a number under the substitution, or None."""
    if isinstance(v, (Ptr, External)):
        v = v.as_term()
    if type(v) is bool:
        return v
    if type(v) is int:
        return v & bv.mask(w)
    t = z3.simplify(sub(v))
    if z3.is_true(t):
        return True
    if z3.is_false(t):
        return False
    return t.as_long() if z3.is_bv_value(t) else None


# ---- the model's side ------------------------------------------------------------------

_variables, _sorts = {}, {}


def _variable(name, width, boolean):
    """The z3 variable of a state's input, made once: every symbolic state
    names its inputs alike, and z3 would hand back the same term anyway."""
    key = (name, width, boolean)
    v = _variables.get(key)
    if v is None:
        v = _variables[key] = z3.Bool(name) if boolean else z3.BitVec(name, width)
    return v


def _value(value, width, boolean):
    """A state's value as a z3 constant, made straight from its digits
    (z3.BitVecVal's own checks cost more than the numeral)."""
    if boolean:
        return z3.BoolVal(value)
    sort = _sorts.get(width)
    if sort is None:
        sort = _sorts[width] = z3.BitVecSort(width)
    return z3.BitVecNumRef(Z3_mk_numeral(sort.ctx_ref(), str(value & bv.mask(width)), sort.ast), sort.ctx)

class _Target:
    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value


class CheckExe:
    """What the semantics ask of an executor, for one instruction on a case."""

    def __init__(self, image_obj, canary_obj):
        self.image_obj, self.canary_obj = image_obj, canary_obj
        self.others = []        # the other paths an instruction splits into (a stack realigned past 16 bytes)

    def also(self, state):
        self.others.append(state)

    def jump_to(self, m, target):
        m.next = _Target(target)

    def return_to(self, m, target):
        m.next = _Target(target)

    def end_path(self, m):
        m.s.done = True

    def segment_address(self, m, op):
        if op.seg == 'fs' and op.base is None and op.index is None and op.disp == 0x28:
            return Ptr(self.canary_obj, 0)
        m.refuse('a %s-relative access' % op.seg)


def model_outcome(lay, c, symbolic, fsw):
    insn = lay.insn
    mem = Memory(None)
    objs = {name: mem.new(name, 'out', 1 << 48, 1) for name in lay.objects}
    canary = mem.new('canary', 'in', 8, 8, c.canary)
    bases = dict(lay.objects, canary=CANARY_BASE)
    pairs = [(objs[name].base, z3.BitVecVal(base & bv.mask(64), 64)) for name, base in bases.items() if name in objs]
    pairs.append((canary.base, z3.BitVecVal(CANARY_BASE, 64)))
    known = {}                                   # id of an input variable -> its value in the state

    def given(name, value, width, boolean=False):
        v = _variable(name, width, boolean)
        pairs.append((v, _value(value, width, boolean)))
        known[id(v)] = value
        return v

    s = State(mem, insn.addr)
    for i in range(16):
        if i in c.ptr:
            obj, off = c.ptr[i]
            s.gpr[i] = Ptr(objs[obj], off)
        elif symbolic and i not in c.fixed:
            s.gpr[i] = given('g%d' % i, c.gpr[i], 64)
        else:
            s.gpr[i] = c.gpr[i]
    for i in range(32):
        s.vec[i] = given('z%d' % i, c.vec[i], VLEN) if symbolic else c.vec[i]
    for j in range(8):
        s.kreg[j] = given('k%d' % j, c.kreg[j], 64) if symbolic else c.kreg[j]
    for f, val in c.flags.items():
        s.flags[f] = given('f_' + f, val, 1, True) if symbolic and f != 'DF' else val
    s.fsw = fsw
    initial = {}
    for k, (obj, lo, data) in enumerate(c.windows):
        n = len(data)
        value = int.from_bytes(data, 'little')
        if symbolic:
            value = given('w%d' % k, value, 8 * n)
        mem.put(objs[obj], lo - lay.objects[obj], value, 8 * n)
        initial[obj, lo] = value
    sub = Substitution(pairs)

    def val(v, w):
        """v as a number (or truth value) on the state, None where it is not one."""
        if type(v) is int:
            return v & bv.mask(w)
        if type(v) is bool:
            return v
        if isinstance(v, Ptr) and type(v.off) is int and v.obj.name in bases:
            return (bases[v.obj.name] + v.off) & bv.mask(w)
        if id(v) in known:
            return known[id(v)]
        return concrete(v, w, sub)

    exe = CheckExe(objs['image'], canary)
    m = Machine(exe, s, insn)
    try:
        sem.execute(m)
    except Refusal as e:
        return {'refused': str(e)}
    except (z3.Z3Exception, ArithmeticError, TypeError, ValueError) as e:   # the model cannot take this state
        return {'refused': 'the model fails on it: %s: %s' % (type(e).__name__, e)}
    if exe.others:
        # a split on the state's own place: the path whose condition this state meets
        held = [t for t in [s] + exe.others if val(t.cond[-1], 1) is True]
        if len(held) != 1:
            return {'refused': 'the model splits the path and %d of its paths hold on this state' % len(held)}
        s = held[0]
    out = {'gpr': [val(s.gpr[i], 64) for i in range(16)], 'zmm': [val(s.vec[i], VLEN) for i in range(32)],
           'k': [val(s.kreg[j], 64) for j in range(8)], 'flags': {}}
    out['ymm'] = [None if v is None else v & bv.mask(256) for v in out['zmm'][:16]]
    for f in FLAGS:
        v = s.flags[f]
        if type(v) is Lazy:
            v = v.get()
        if type(v) is not Undef:
            out['flags'][f] = val(v, 1)
    out['fcw'] = val(s.fcw, 16)
    out['mxcsr_control'] = val(s.mxcsr, 32)
    # the windows' bytes, and any the model wrote elsewhere
    out['mem'], inside = {}, set()
    for obj, lo, data in c.windows:
        base, first = lay.objects[obj], initial[obj, lo]
        for i in range(len(data)):
            key = (obj, lo - base + i)
            inside.add(key)
            e = s.mem.bytes.get(key)
            if e is not None and e[0] is first:
                out['mem'][lo + i] = data[i]
            else:
                out['mem'][lo + i] = val(bv.extract(e[0], 8 * e[2] + 7, 8 * e[2], e[1]), 8) if e else None
    out['outside'] = sorted((bases.get(k[0], 0) + k[1]) & bv.mask(64) for k in s.mem.bytes
                            if k not in inside and k[0] != 'canary')[:4]
    fault = None
    for desc, addr, claim, path in s.owed:
        if val(claim, 1) is False:
            fault = desc
            if desc.startswith(CPU_FAULTS):
                break
    out['fault'] = fault
    nxt = m.next
    if m.fork is not None:
        cond = val(m.fork[0], 1)
        nxt = m.fork[1] if cond else m.next if cond is False else None
    if isinstance(nxt, _Target):
        out['next'] = val(nxt.value, 64)
    elif type(nxt) is int:
        out['next'] = (nxt + lay.slide) & bv.mask(64)
    else:
        out['next'] = None
    return out


# ---- comparing -------------------------------------------------------------------------

def _hex(v):
    return hex(v) if type(v) is int else str(v)


def compare(model, cpu):
    """None when they agree, 'skip' when the state says nothing, else the first difference."""
    mf, cf = model['fault'], cpu['fault']
    if cf:
        if mf:
            return None
        return 'this CPU faults (%s) where the model predicts no fault' % cf
    if mf:
        if mf.startswith(CPU_FAULTS):
            return 'the model predicts a fault (%s) where this CPU runs it' % mf
        return 'the model %s where this CPU runs it' % mf
    if model['outside'] or cpu['outside']:      # bytes whose values would go unchecked
        return 'writes outside the bytes compared: model at %s, CPU at %s' % (
            ', '.join(map(hex, model['outside'])) or 'none', ', '.join(map(hex, cpu['outside'])) or 'none')
    for i, r in enumerate(GPRS):
        if model['gpr'][i] is not None and model['gpr'][i] != cpu['gpr'][i]:
            return '%%%s: model %s, CPU %s' % (r, _hex(model['gpr'][i]), _hex(cpu['gpr'][i]))
    for f, v in model['flags'].items():
        if v is not None and v != cpu['flags'][f]:
            return '%s: model %d, CPU %d' % (f, v, cpu['flags'][f])
    vec = 'zmm' if 'zmm' in cpu else 'ymm'        # the registers the stub holds
    for i, (mv, cv) in enumerate(zip(model[vec], cpu[vec])):
        if mv is not None and mv != cv:
            return '%%%s%d: model %s, CPU %s' % (vec, i, _hex(mv), _hex(cv))
    for j, (mv, cv) in enumerate(zip(model['k'], cpu.get('k', ()))):
        if mv is not None and mv != cv:
            return '%%k%d: model %s, CPU %s' % (j, _hex(mv), _hex(cv))
    for a, v in model['mem'].items():
        if v is not None and v != cpu['mem'][a]:
            return 'the byte at %#x: model %s, CPU %s' % (a, _hex(v), _hex(cpu['mem'][a]))
    if model['next'] != cpu['next']:
        return 'the next instruction: model %s, CPU %s' % (_hex(model['next']), _hex(cpu['next']))
    if model['fcw'] is not None and model['fcw'] != cpu['fcw']:
        return 'the x87 control word: model %s, CPU %s' % (_hex(model['fcw']), _hex(cpu['fcw']))
    if model['mxcsr_control'] != cpu['mxcsr_control']:
        return 'MXCSR\'s control bits: model %s, CPU %s' % (_hex(model['mxcsr_control']), _hex(cpu['mxcsr_control']))
    return None


def shown(c, insn):
    """The state's registers the instruction names, its flags and its first operand bytes, briefly."""
    names = {gpr_of(r) for o in insn.ops for r in (o.reg, o.base, o.index) if r and gpr_of(r)}
    out = ['%s=%#x' % (r, c.gpr[GPRS.index(r)]) for r in GPRS if r in names and r != 'rsp']
    xs = {int(o.reg[3:]) for o in insn.ops if o.kind == 'reg' and o.reg[:3] in ('xmm', 'ymm', 'zmm')}
    out += ['zmm%d=%#x' % (k, c.vec[k]) for k in sorted(xs)]
    ks = {o.reg for o in insn.ops if o.kind == 'reg' and o.reg[:1] == 'k'} | {getattr(insn, 'mask', None)} - {None}
    out += ['%s=%#x' % (k, c.kreg[int(k[1:])]) for k in sorted(ks)]
    out.append('flags=' + (''.join(f for f, v in sorted(c.flags.items()) if v) or '-'))
    return ' '.join(out)


def _wide_state(insn):
    """An EVEX or opmask instruction (x86/evex.py's), or one naming zmm,
    xmm16..31, ymm16..31 or an opmask register."""
    regs = [o.reg for o in insn.ops if o.kind == 'reg']
    return hasattr(insn, 'zeroing') or any(r[:3] == 'zmm' or r[:1] == 'k' or r[:3] in ('xmm', 'ymm') and
                                           int(r[3:]) >= 16 for r in regs)


# ---- per library ---------------------------------------------------------------------------

class Agreement:
    """Each encoding checked once per library: results by its bytes (and
    its offset in its page, for a RIP-relative operand)."""

    def __init__(self, cases=CASES, seed=1):
        self.cases = cases
        self.results = {}
        self.runner = native.Runner()
        self.rng = random.Random(seed)
        self.checked = 0

    def close(self):
        self.runner.close()

    def disagreement(self, insns, code_of):
        """The first of insns (decoded instructions) whose encoding (code_of(insn): its bytes)
        the model and this CPU disagree on, as a reason; None when all agree."""
        for insn in insns:
            code = code_of(insn)
            if not native.WIDE and _wide_state(insn):
                return ('the native check cannot run `%s` at %#x (%s): it touches zmm or opmask state, which the '
                        'stub holds only on a CPU with AVX-512F and BW' % (' '.join('%02x' % b for b in code),
                                                                           insn.addr, insn.text))
            # a RIP-relative operand's alignment and page are the address's too
            key = (code, insn.addr & (native.PAGE - 1) if any(o.kind == 'mem' and o.base == 'rip'
                                                              for o in insn.ops) else None)
            if key not in self.results:
                self.results[key] = self._check(insn, code)
            got = self.results[key]
            if got:
                head = ('the model and this CPU disagree on' if got[0] == 'disagree' else
                        'the native check cannot run')
                return '%s `%s` at %#x (%s): %s' % (head, ' '.join('%02x' % b for b in code), insn.addr, insn.text,
                                                   got[1])
        return None

    def _check(self, insn, code):
        self.checked += 1
        try:
            for attempt in range(4):
                stub = self.runner.ensure()
                x = placement.CODE_AREA + native.PAGE * self.rng.randrange(1 << 28) + (insn.addr & (native.PAGE - 1))
                try:
                    lay = placement.Layout(insn, code, x, stub)
                    cases = [placement.make_case(lay, k, self.runner.canary) for k in range(self.cases)]
                    pages, job = placement.native_job(lay, cases)
                    results = self.runner.run(pages, job)
                    break
                except native.Unplaceable as e:
                    if 'taken' not in str(e):
                        return 'unchecked', str(e)
            else:
                return 'unchecked', 'no free pages for it'
        except native.Unavailable as e:
            return 'unchecked', str(e)
        if any(res.get('fault') == 'timeout' for res in results):
            return 'unchecked', 'a state did not finish within %g s natively' % self.runner.case_timeout
        compared, refused, unplaced, fsw = 0, None, None, 0
        for k, (c, res) in enumerate(zip(cases, results)):
            cpu = placement.native_outcome(lay, c, res)
            fsw = cpu.get('fsw_before', fsw)
            if c.unplaced:
                unplaced = c.unplaced
                continue
            for symbolic in ((False, True) if k in SYMBOLIC else (False,)):
                model = model_outcome(lay, c, symbolic, fsw)
                if 'refused' in model:
                    refused = refused or model['refused']
                    break
                diff = compare(model, cpu)
                if diff:
                    return 'disagree', '%s (%s inputs: %s)' % (diff, 'symbolic' if symbolic else 'numeric',
                                                               shown(c, insn))
            else:
                compared += 1
        if 2 * compared < len(cases):
            why = refused or 'a state cannot be laid out: %s' % unplaced
            return 'unchecked', 'it compared %d of %d states (%s)' % (compared, len(cases), why)
        return None


def main():
    """Check encodings given in hex (as at address 0x401000): one line each."""
    from q7prove.x86.decode import Decoder
    ap = argparse.ArgumentParser(prog='x86/agree.py', description='the model against this CPU on given encodings')
    ap.add_argument('hex', nargs='+')
    ap.add_argument('--cases', type=int, default=CASES)
    a = ap.parse_args()

    class Bytes:
        def __init__(self, code):
            self.code = code

        def executable(self, addr):
            return True

        def segment_of(self, addr):
            return (0x401000, len(self.code))

        def code_at(self, addr, n):
            return self.bytes_at(addr, n)

        def code_problem(self, addr, n):
            return None

        def bytes_at(self, addr, n):
            return self.code[addr - 0x401000:addr - 0x401000 + n]

        def where(self, addr):
            return hex(addr)
    ag = Agreement(a.cases)
    bad = 0
    try:
        for h in a.hex:
            try:
                code = bytes.fromhex(h)
            except ValueError:
                print('x86/agree.py: %s is not hex' % h, file=sys.stderr)
                return 2
            try:
                insn = Decoder(Bytes(code)).at(0x401000)
            except Exception as e:
                print('%s: %s' % (h, e))
                bad += 1
                continue
            why = ag.disagreement([insn], lambda i: code[:i.size])
            print('%s (%s): %s' % (h, insn.text, why or 'agree'))
            bad += why is not None
    finally:
        ag.close()
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
