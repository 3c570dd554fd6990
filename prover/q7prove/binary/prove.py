# SPDX-License-Identifier: BSD-3-Clause
"""The binary prover `q7pred prove` runs: every leaf of a library's
machine code against what its name requires (docs/proofs.md).

  binary/prove.py --lib PATH --table FILE|- [--leaf NAME]... [--timeout S]

FILE (- for stdin) is the tables the CLI hands over (`q7pred prove
--write-table FILE` writes them): every row of the leaf table and every shape's operands, and
per leaf the shape its arguments are passed in and, from a probe report,
its bit map. One JSON object per line on stdout:

  {"prover": ..., "leaves": N}                        first
  {"start": LEAF}                                     as each leaf begins
  {"leaf", "status", "seconds", "reason"?,            one per leaf, in table order
   "counterexample"?, "in_words"?, "predicted"?, "expected"?,
   "unwritten"?, "cpu_features"?}
  {"error": "..."}                                    unreadable input (exit 2)
  {"missing": "..."}                                  z3 or capstone missing (exit 77)

status: proven-binary (z3 and then cvc5 find the question unsat; cvc5
runs beside the next leaves, and a row goes out once its answer is in),
refuted (a counterexample), unproven (a reason: the instruction and
address, a loop, a timeout, the second solver missing or not agreeing)
or absent (the library does not export the symbol). --timeout bounds each
solver's time on a leaf. in_words are the counterexample in the
table shape's input word layout; predicted the outputs the proof predicts
for a real call on them, by object ("result", "FS3"), and each aligned
word it writes outside one ("result+4"): null where it cannot say (a byte
never written, a value that depends on what the caller leaves in
registers); expected the spec's outputs; unwritten the output objects
with a word no byte of which the proof predicts written; cpu_features the CPU
features beyond x86-64's baseline the leaf's instructions need
(/proc/cpuinfo's names, "avx2 bmi2"): what it proves holds on a CPU that
has them (x86/features.py).
"""
import argparse
import collections
import json
import os
import sys
import time
import traceback



def emit(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()


try:
    import z3
    import capstone
except ImportError as e:
    emit({'missing': '%s (Debian: python3-z3 python3-capstone)' % e})
    sys.exit(77)

from q7prove.smt import bitvec as bv
from q7prove.smt import second
from q7prove.smt.solver import Undecided
from q7prove.elf import image as elf_image
from q7prove.elf import loaded as elf_loaded
from q7prove.elf import symbols as elf_symbols
from q7prove.binary import leaf as leaf_proof
from q7prove.obligations import names
from q7prove.machine.memory import Refusal
from q7prove.x86.decode import Decoder
from q7prove.x86 import native
from q7prove.x86.agree import Agreement
from q7prove.binary import api, vector, vecaccess, vecdo

# the families of exported functions `--all` proves besides the leaves: each
# a module with jobs(image, table, names) (binary/api.py says what a job is)
FAMILIES = (api, vector, vecaccess, vecdo)


def words_of(value, nwords):
    return [(value >> (32 * k)) & 0xffffffff for k in range(nwords)]


def evaluate(model, term, replay):
    """term's value for the replay: the model's inputs substituted, the
    unknowns the replay sets (the value arguments' upper halves: 0) too;
    None when it still depends on something the replay does not set."""
    if isinstance(term, int):
        return term
    t = z3.substitute(term, *replay)
    t = z3.simplify(t)
    return t.as_long() if z3.is_bv_value(t) else None


def counterexample(run, model):
    """The counterexample's inputs, and what the proof predicts a real call on them leaves."""
    val = lambda v: model.eval(v, model_completion=True).as_long()
    replay = []
    shown, in_words = {}, []
    for op in run.table_ops:
        if op['dir'] != 'in':
            continue
        v = run.inputs[op['name']]
        parts = v if isinstance(v, list) else [v]
        for k, x in enumerate(parts):
            replay.append((x, z3.BitVecVal(val(x), x.size())))
            shown[str(x)] = hex(val(x))
            in_words += words_of(val(x), x.size() // 32)
    replay += [(h, z3.BitVecVal(0, 32)) for h in run.garbage_high]
    out = {'counterexample': shown, 'in_words': in_words}
    state = next((s for s, how in run.finals
                  if z3.is_true(model.eval(bv.boolean(s.path()), model_completion=True))), None)
    predicted, expected, unwritten = {}, {}, []
    want = run.expected()
    for obj, tab, op, word, words in run.out_objects:
        spec_v = z3.BitVecVal(0, 32 * words) if op['dir'] == 'aux' else want.get(obj.name)
        e = evaluate(model, spec_v, replay) if spec_v is not None else None
        if e is not None:
            expected[obj.name] = hex(e)
        predicted[obj.name] = None
        if state is None or state.done:
            continue
        got, written = run.final_word_part(state, obj, 0, obj.size)
        if got is not None and _holds(written, replay):
            v = evaluate(model, got, replay)
            predicted[obj.name] = None if v is None else hex(v)
        elif any(_never_written(state, obj, 4 * w, replay) for w in range(obj.size // 4)):
            unwritten.append(obj.name)
    for cond, obj, off, n, value in (state.mem.strays if state is not None else []):
        if not z3.is_true(model.eval(bv.boolean(cond), model_completion=True)):
            continue
        for w in range(off // 4, (off + n + 3) // 4):   # each aligned word it reaches, named "obj+offset"
            if obj.kind == 'out' and 0 <= 4 * w < obj.size:
                continue
            v = None
            if off <= 4 * w and 4 * w + 4 <= off + n and not hasattr(value, 'obj'):
                v = evaluate(model, bv.extract(bv.term(value, 8 * n), 8 * (4 * w - off) + 31, 8 * (4 * w - off),
                                               8 * n), replay)
            if v is not None and obj.kind == 'in' and v == _input_word(run, model, obj.name, w):
                continue          # it put back what was there: no call can see it
            predicted['%s%+d' % (obj.name, 4 * w)] = None if v is None else hex(v)
    out['predicted'] = predicted
    out['expected'] = expected
    out['unwritten'] = unwritten
    return out


def _never_written(state, obj, off, replay):
    """Whether no byte of the word at obj+off is written at the end of the
    counterexample's path: a real call that changes the word contradicts it."""
    for i in range(4):
        e = state.mem.bytes.get((obj.name, off + i))
        if e is not None and not _holds(bv.bnot(e[3]), replay):
            return False
    return True


def _input_word(run, model, name, w):
    """Word w of input object `name` as the counterexample passes it."""
    for v in run.inputs.values():
        for x in (v if isinstance(v, list) else [v]):
            if str(x) == name and 0 <= 32 * w < x.size():
                return (model.eval(x, model_completion=True).as_long() >> (32 * w)) & 0xffffffff
    return None


def _holds(c, replay):
    if c is True:
        return True
    if c is False:
        return False
    return z3.is_true(z3.simplify(z3.substitute(c, *replay)))


class _Reached:
    """The decoder as a leaf's run sees it, keeping every instruction the run reaches."""

    def __init__(self, decoder):
        self.decoder, self.image, self.insns = decoder, decoder.image, {}

    def at(self, addr):
        insn = self.insns[addr] = self.decoder.at(addr)
        return insn

    def __getattr__(self, name):
        return getattr(self.decoder, name)


def leaf_binding(image, name):
    """(status, reason) when the leaf's symbol is not one the proof can take
    as the code every caller runs; None when it is."""
    sym = image.by_name.get(name)
    loaded = image.loaded
    if image.load_problem:
        return 'unproven', image.load_problem
    if loaded is not None and loaded.problems:
        return 'unproven', '; '.join(loaded.problems)
    why = loaded.leaf_problem(name, sym) if loaded is not None else None
    if sym is None:
        return ('unproven', why) if why else ('absent', 'not in the dynamic symbol table')
    if name in image.binding_problem:
        return 'unproven', image.binding_problem[name]
    if sym.kind == elf_symbols.STT_GNU_IFUNC:
        return 'unproven', ('an IFUNC symbol: the leaf is the function its resolver picks when the library is loaded, '
                            'which the prover does not follow')
    if sym.kind != elf_symbols.STT_FUNC or sym.shndx in (elf_symbols.SHN_ABS, elf_symbols.SHN_COMMON):
        return 'unproven', ('%s is not a function (%s%s): no call of it is proven'
                            % (sym.describe(), elf_symbols.KINDS.get(sym.kind, 'type %d' % sym.kind),
                               ', an absolute symbol' if sym.shndx == elf_symbols.SHN_ABS else ''))
    if not image.executable(sym.value):
        return 'unproven', '%s: %s' % (sym.describe(), image.code_problem(sym.value, 1) or
                                       'its address %s is not code' % image.where(sym.value))
    return ('unproven', why) if why else None


def prove_one(image, decoder, row, shapes, timeout, agreement):
    """One leaf's result; agreement (x86/agree.py) runs each instruction a
    proof reaches on this CPU against its model before the leaf is proven."""
    t0 = time.monotonic()
    deadline = t0 + timeout
    d = names.derive(row['leaf'])
    res = {'leaf': row['leaf']}
    pending = None
    findings = names.check_row(row, shapes, d) if d else []
    binding = leaf_binding(image, row['symbol'])
    if d is None:
        res.update(status='unproven', reason='the name fits no group of DECISIONS.md section 1: no obligation')
    elif binding is not None:
        res.update(status=binding[0], reason=binding[1])
    elif row['placement'] is None:
        res.update(status='unproven', reason='the probe report found no shape its arguments fit (--abi)')
    else:
        def explain(run, model, fail):
            out = counterexample(run, model)
            out['clobbers'] = any(leaf_proof.caller_claim(desc) for desc, _ in fail)
            return out
        pending = settle(res, lambda reached: leaf_proof.LeafRun(image, reached, row, shapes, row['placement'],
                                                                 row.get('bit_map'), deadline).run(),
                         decoder, deadline, timeout, agreement, explain)
    return Leaf(res, findings, pending, time.monotonic() - t0)


# z3's answer alone, timed, and never a proof (--timing-baseline: make
# bench's yardstick for what the cross-checks cost)
TIMING_BASELINE = False
BASELINE = ('a timing baseline, not a proof: z3 alone on the file\'s bytes, with no loaded image, second decoder, '
            'native check or second solver')


def settle(res, make_run, decoder, deadline, timeout, agreement, explain):
    """One proof's run and solving into res (status, reason, cpu_features,
    and for a refutation what explain(run, model, failing claims) gives);
    make_run(decoder) runs it. The second solver's Pending for a proof z3
    found, else None. agreement (x86/agree.py) runs each instruction the
    proof reaches on this CPU against its model before it is proven."""
    pending = None
    try:
        reached = _Reached(decoder)
        run = make_run(reached)
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError()
        status, fail, model = leaf_proof.solve(run, left)
        if run.features:
            res['cpu_features'] = ' '.join(sorted(run.features))
        if status == 'proven-binary' and TIMING_BASELINE:
            res.update(status='unproven', reason=BASELINE)
        elif status == 'proven-binary':
            # what the run ran (a run that keeps it: the flow's reading decodes more)
            ran = getattr(run, 'reached', None)
            why = agreement.disagreement([reached.insns[a] for a in sorted(reached.insns if ran is None else ran)],
                                         lambda i: i.raw)
            if why:
                res.update(status='unproven', reason=why)
            else:
                res.update(status='proven-binary')
                # the second solver has what is left of the proof's time
                pending = second.Pending(*run.question, max(1.0, deadline - time.monotonic()))
        elif status == 'open':
            res.update(status='unproven', reason='a counterexample needs the processor to choose: ' +
                       '; '.join(fail))
        elif status == 'refuted':
            shown = list(dict.fromkeys('%s%s' % (desc, ' at %#x' % addr if addr is not None else '')
                                       for desc, addr in fail))   # one claim owed on two paths: said once
            res.update(status='refuted', reason='; '.join(shown[:4]) + ('; ...' if len(shown) > 4 else ''))
            res.update(explain(run, model, fail))
        elif fail == 'timeout' or time.monotonic() >= deadline:
            res.update(status='unproven', reason='timeout after %g s (z3 found neither a proof nor a '
                                                 'counterexample in time)' % timeout)
        else:
            res.update(status='unproven', reason='z3: %s' % fail)
    except (Refusal, Undecided) as e:
        res.update(status='unproven', reason=str(e))
    except TimeoutError:
        res.update(status='unproven', reason='timeout after %g s' % timeout)
    except z3.Z3Exception as e:
        res.update(status='unproven', reason='z3: %s' % e)
    except RecursionError:
        res.update(status='unproven', reason='a term too deep for the prover')
    except Exception as e:   # a mistake of the prover's own: named, and this proof alone unproven
        traceback.print_exc()
        res.update(status='unproven', reason='the prover failed: %s: %s' % (type(e).__name__, e))
    return pending


class Leaf:
    """One leaf's answer, final once the second solver's is in."""

    def __init__(self, res, findings, pending, seconds):
        self.res, self.findings, self.pending, self.seconds = res, findings, pending, seconds

    def done(self):
        return self.pending is None or self.pending.done()

    def final(self):
        res = self.res
        if self.pending is not None:
            answer, detail = self.pending.answer()
            self.seconds += self.pending.seconds
            if answer != 'unsat':
                res.update(status='unproven', reason=_unconfirmed(answer, detail))
        if self.findings and res['status'] != 'absent':
            table = 'the leaf table\'s row %s: %s' % (res['leaf'], '; '.join(self.findings))
            res['reason'] = table + ('; the code: ' + res['reason'] if res.get('reason') else
                                     '; the code: proven against the name')
            res['status'] = 'refuted'
        res['seconds'] = round(self.seconds, 3)
        return res


def _unconfirmed(answer, detail):
    """Why a proof z3 found is not one: the second solver's answer."""
    if answer == 'missing':
        return 'cvc5 missing: the second solver could not confirm z3\'s proof (%s)' % detail
    return 'the two solvers do not agree: z3 unsat (a proof), cvc5 %s (%s)' % (
        {'sat': 'sat', 'unknown': 'unknown', 'timeout': 'timeout', 'error': 'no answer'}[answer], detail)


def exported_functions(image, leaf_symbols):
    """The functions the library exports besides its leaves, by name: every
    defined function or IFUNC symbol a lookup by name finds."""
    return sorted(n for n, sym in image.by_name.items()
                  if n not in leaf_symbols and sym.defined and
                  sym.kind in (elf_symbols.STT_FUNC, elf_symbols.STT_GNU_IFUNC))


class Unproven:
    """A function no family answers for, or one whose family this run
    leaves out."""

    def __init__(self, name, reason):
        self.name, self.reason = name, reason

    def prove(self, image, decoder, timeout, agreement):
        return Leaf({'function': self.name, 'status': 'unproven', 'reason': self.reason}, [], None, 0.0)


def function_jobs(image, table, exported):
    """One job per exported function, in name order (those that stand on the
    others' proofs last): the first family that
    answers for it proves it (or says it has no obligation); a q7v_ no
    family answers for unproven; any other name no-obligation.
    A family also lists the functions it owes that the library does not
    export (absent)."""
    claimed = {}
    only = os.environ.get('Q7PRED_PROVE_FAMILIES')      # a shorter run: the families named (api,vector)
    families = [f for f in FAMILIES if only is None or f.__name__.rsplit('.', 1)[-1] in only.split(',')]
    for family in families:
        for job in family.jobs(image, table, [n for n in exported if n not in claimed]):
            claimed.setdefault(job.name, job)
    left_out = [f for f in FAMILIES if f not in families]
    for n in exported:
        if n in claimed:
            continue
        if any(j.name == n for f in left_out for j in f.jobs(image, table, [n])):
            claimed[n] = Unproven(n, 'its family is left out of this run ($Q7PRED_PROVE_FAMILIES=%s)' % only)
        elif n.startswith('q7v_'):
            claimed[n] = Unproven(n, 'a vector-level function that is no instruction (the vector family proves '
                                     'the q7v_<mnemonic> instructions): no family of the prover answers for it')
        else:
            claimed[n] = api.NoObligation(n, 'no family of the spec\'s operations has this name: no obligation')
    # a job that stands on other families' proofs (binary/vecdo.py's) runs after them
    return sorted(claimed.values(), key=lambda j: (getattr(j, 'after_others', False), j.name))


def main():
    global TIMING_BASELINE
    ap = argparse.ArgumentParser(prog='binary/prove.py', description='prove a library\'s machine code')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--leaf', action='append', default=[])
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('--all', action='store_true',
                    help='after the leaves, every other function the library exports (FAMILIES)')
    ap.add_argument('--done', action='append', default=[],
                    help='--all: a function already answered (a restarted prover skips it); repeatable')
    ap.add_argument('--no-leaves', action='store_true', help='prove no leaf (a restart past the leaves)')
    ap.add_argument('--name', help='the library as the user named it (messages); --lib is where its bytes are')
    ap.add_argument('--loader', help='the q7pred executable that loads the library (its loaded-image child), '
                                     'run after the words of $Q7PRED_EMULATOR as q7pred runs its own children')
    ap.add_argument('--preload', action='append', default=[],
                    help='a dependency to load first (one the library finds through $ORIGIN); repeatable')
    ap.add_argument('--timing-baseline', action='store_true',
                    help='time z3 alone on the file\'s bytes: no loaded image, objdump, native check or cvc5, and '
                         'everything z3 proves is unproven (make bench compares the prover with it)')
    a = ap.parse_args()
    try:
        if a.table == '-':
            table = json.load(sys.stdin)
        else:
            with open(a.table) as f:
                table = json.load(f)
        rows, shapes = table['leaves'], table['shapes']
    except (OSError, ValueError, KeyError) as e:
        emit({'error': 'the tables %s are unreadable: %s' % (a.table, e)})
        return 2
    want = set(a.leaf)
    rows = [r for r in rows if not a.no_leaves and (not want or r['leaf'] in want)]
    name = a.name or a.lib
    try:
        image = elf_image.Image(a.lib, name)
        functions = []
        if a.all:
            leaf_symbols = {r['symbol'] for r in table['leaves']}
            exported = exported_functions(image, leaf_symbols)
            functions = [j for j in function_jobs(image, table, exported) if j.name not in set(a.done)]
        if a.timing_baseline:
            TIMING_BASELINE, image.loaded_report = True, None
        else:
            elf_loaded.attach(image, a.loader, a.lib, [r['symbol'] for r in rows] + [j.name for j in functions],
                              a.preload)
    except (elf_image.ElfError, elf_loaded.LoadError) as e:
        emit({'error': str(e)})
        return 2
    except Exception as e:   # a mistake of the reader's own: one line, never a traceback on stdout
        traceback.print_exc()
        emit({'error': "'%s': the ELF reader failed on it (%s: %s)" % (name, type(e).__name__, e)})
        return 2
    decoder = Decoder(image)
    if a.timing_baseline:
        decoder.cross_check = lambda addrs: None
    cvc5 = second.version()
    header = {'prover': 'z3 %s, cvc5 %s, capstone %s, native check on %s'
                        % (z3.get_version_string(), cvc5 or 'missing', capstone.__version__, native.cpu_name()),
              'leaves': len(rows)}
    if a.all:
        header['functions'] = len(functions)
    if getattr(image, 'loaded_report', None) is not None:
        header['image'] = image.loaded_report
    elif image.load_problem:
        header['image'] = {'loads': 0, 'problems': [image.load_problem]}
    emit(header)
    agreement = None if a.timing_baseline else Agreement()
    work = [(row['leaf'], lambda row=row: prove_one(image, decoder, row, shapes, a.timeout, agreement))
            for row in rows]
    work += [(job.name, lambda job=job: job.prove(image, decoder, a.timeout, agreement)) for job in functions]
    # cvc5 answers beside the next proofs, one run a core; rows go out in
    # order, each once its own answer is in
    width = max(1, len(os.sched_getaffinity(0)))
    waiting = collections.deque()
    try:
        for name, prove in work:
            emit({'start': name})
            waiting.append(prove())
            while waiting and (waiting[0].done() or len(waiting) > width):
                emit(waiting.popleft().final())
        while waiting:
            emit(waiting.popleft().final())
    finally:
        if agreement is not None:
            agreement.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
