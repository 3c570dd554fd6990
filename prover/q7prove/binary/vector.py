# SPDX-License-Identifier: BSD-3-Clause
"""The vector level from the machine code: each exported q7v_<mnemonic>
against what its mnemonic requires (binary/vecspec.py), on every path its
run-time dispatch can reach (binary/vecdispatch.py).

A q7v_ function reads the kernel table in force (`in_force`, NULL until the
first call resolves it, or a table q7v_select stored) and jumps to the
table's row for its mnemonic. Its proof runs the function from its entry
once per path table (PATHS: q7v_<path>_kernels, found in .symtab) with
`in_force` holding that table, through the table's relocated word into the
kernel and back to the caller, for every input; the run is the leaf
prover's (binary/leaf.py: the System V caller, the memory objects, every
path of the code, the two solvers, each instruction checked against this
CPU). With `in_force` NULL the function resolves the path itself: that
choice, for every feature set and environment, is the dispatch check.

  python3 -m q7prove.binary.vector --lib L --loader build/q7pred [--function q7v_x]...
      [--timeout S] [--paths avx512,avx2,portable,reference] [--no-dispatch]

prints one JSON line per function as binary/prove.py does per leaf, with
"function" for "leaf" and per path its own status ("paths").
"""
import argparse
import json
import sys
import time
import traceback

import z3

from q7prove.smt import second
from q7prove.smt.solver import Undecided
from q7prove.machine.memory import Refusal
from q7prove.binary import leaf as leaf_proof
from q7prove.binary import vecspec
from q7prove.binary.vecrun import PATHS, Staged, Tables, VecRun, counterexample

class PathResult:
    """One path's proof of one function: status, reason, kernel, features,
    pending (the second solver), seconds."""

    def __init__(self, path):
        self.path, self.status, self.reason, self.kernel = path, None, None, None
        self.features, self.pending, self.seconds, self.cex, self.claims = set(), None, 0.0, None, None
        self.kernel_addr, self.generic = None, None
        self.timing, self.cvc5_seconds = None, 0.0

    def final(self):
        if self.pending is not None:
            answer, detail = self.pending.answer()
            self.seconds += self.pending.seconds
            self.cvc5_seconds = self.pending.seconds
            self.pending = None
            if answer != 'unsat':
                from q7prove.binary.prove import _unconfirmed
                self.status, self.reason = 'unproven', _unconfirmed(answer, detail)
        out = {'path': self.path, 'status': self.status, 'seconds': round(self.seconds, 3)}
        if self.timing:
            out['timing'] = dict(self.timing, cvc5=round(self.cvc5_seconds, 2))
        for k, v in (('reason', self.reason), ('kernel', self.kernel), ('counterexample', self.cex)):
            if v is not None:
                out[k] = v
        if self.features:
            out['cpu_features'] = ' '.join(sorted(self.features))
        return out


def prove_path(image, decoder, op, sym, tables, path, timeout, agreement):
    """One path's proof. The kernel runs from its own entry state
    (VecRun's generic) where the entry's jump to it allows; a verdict other
    than a proof is then the run's without that, so that it holds of the
    state the entry really leaves. r.generic: None when the kernel is
    proven as a function of its kind called by anyone, else why not."""
    t0 = time.monotonic()
    r = _prove_path(image, decoder, op, sym, tables, path, t0 + timeout, timeout, agreement, True)
    if r.status != 'proven-binary' and r.generic is None:
        r = _prove_path(image, decoder, op, sym, tables, path, t0 + timeout, timeout, agreement, False)
        r.generic = 'the kernel is not proven from an entry state of its own'
    r.seconds = time.monotonic() - t0
    return r


def _prove_path(image, decoder, op, sym, tables, path, deadline, timeout, agreement, generic):
    r = PathResult(path)
    t0 = time.monotonic()
    vr = VecRun(image, decoder, op, sym, tables, path, deadline, generic)
    try:
        run = vr.run()
        r.features = set(run.features)
        if len(run.kernels) == 1:
            k = next(iter(run.kernels))
            r.kernel = '%s at %#x' % (image.function_name(k) or 'a function', k)
            r.kernel_addr = k
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError()
        t1 = time.monotonic()
        status, fail, model = leaf_proof.solve(run, left)
        t2 = time.monotonic()
        r.timing = {'run': round(t1 - t0, 2), 'z3': round(t2 - t1, 2)}
        if status == 'proven-binary':
            why = agreement.disagreement([decoder.at(a) for a in sorted(run.reached)], lambda i: i.raw)
            r.timing['native'] = round(time.monotonic() - t2, 2)
            if why:
                r.status, r.reason = 'unproven', why
            elif len(run.kernels) != 1:
                r.status, r.reason = 'unproven', ('the entry jumps through its table to %d kernels, not one'
                                                  % len(run.kernels))
            else:
                r.status = 'proven-binary'
                r.pending = Staged(run.questions(), max(1.0, deadline - time.monotonic()))
        elif status == 'open':
            r.status, r.reason = 'unproven', 'a counterexample needs the processor to choose: ' + '; '.join(fail)
        elif status == 'refuted':
            shown = list(dict.fromkeys('%s%s' % (d, ' at %#x' % a if a is not None else '') for d, a in fail))
            r.status, r.reason = 'refuted', '; '.join(shown[:4]) + ('; ...' if len(shown) > 4 else '')
            r.cex = counterexample(run, model)
        elif fail == 'timeout' or time.monotonic() >= deadline:
            r.status, r.reason = 'unproven', 'timeout after %g s' % timeout
        else:
            r.status, r.reason = 'unproven', 'z3: %s' % fail
    except (Refusal, Undecided) as e:
        r.status, r.reason = 'unproven', str(e)
    except TimeoutError:
        r.status, r.reason = 'unproven', 'timeout after %g s' % timeout
    except z3.Z3Exception as e:
        r.status, r.reason = 'unproven', 'z3: %s' % e
    except RecursionError:
        r.status, r.reason = 'unproven', 'a term too deep for the prover'
    except Exception as e:   # the prover's own mistake: named, this path alone unproven
        traceback.print_exc()
        r.status, r.reason = 'unproven', 'the prover failed: %s: %s' % (type(e).__name__, e)
    entries = vr.kernel_entries
    if vr.renewed and len(entries) == 1:
        r.generic = None
    elif len(entries) == 1 and entries[0][1]:
        r.generic = 'its jump to the kernel is no clean tail call: ' + '; '.join(entries[0][1])
    else:
        r.generic = 'the entry jumps to %d kernels' % len(entries) if entries else 'the entry reaches no kernel'
    r.seconds = time.monotonic() - t0
    return r


# ---- the jobs: one per exported q7v_ function ---------------------------

class Result:
    """One function's answer (the leaf prover's Leaf: done() and final()),
    final once every path's second solver has answered."""

    def __init__(self, name, op, paths, dispatch, seconds, early=None):
        self.name, self.op, self.paths, self.dispatch, self.seconds, self.early = name, op, paths, dispatch, seconds, early

    def done(self):
        return all(p.pending is None or p.pending.done() for p in self.paths)

    def final(self):
        # the calls by op read a function's answer too (binary/vecdo.py): made once
        if getattr(self, 'answer', None) is None:
            self.answer = self._final()
        return self.answer

    def _final(self):
        res = {'function': self.name}
        if self.early is not None:
            res.update(self.early)
            res['seconds'] = round(self.seconds, 3)
            return res
        paths = [p.final() for p in self.paths]
        res['paths'] = paths
        # the job's own time, and cvc5's on each path (run beside, or after, it)
        seconds = self.seconds + sum(p.cvc5_seconds for p in self.paths)
        bad = [p for p in paths if p['status'] == 'refuted']
        open_ = [p for p in paths if p['status'] != 'proven-binary' and p['status'] != 'refuted']
        d = self.dispatch
        # the same as one line each, for the report of `q7pred prove --all`
        res['kernels'] = '; '.join('%s: %s%s' % (p['path'], p['status'], ', ' + p['kernel'] if 'kernel' in p else '')
                                   for p in paths)
        if d is not None:
            res['dispatch'] = d.summary(paths)
            res['dispatch_reach'] = '%d cases: %s' % (d.cases, ', '.join('%s %d' % kv for kv in sorted(d.reach.items())))
        if bad:
            res.update(status='refuted', reason='; '.join('%s: %s' % (p['path'], p['reason']) for p in bad),
                       counterexample=bad[0]['counterexample'], refuted_path=bad[0]['path'])
        elif d is not None and d.refuted(paths):
            res.update(status='refuted', reason='dispatch: ' + d.refuted(paths),
                       counterexample={'feature_set': d.bad[0].split(': reaches')[0]})
        elif open_:
            res.update(status='unproven', reason='; '.join('%s: %s' % (p['path'], p['reason']) for p in open_))
        elif d is None or d.unproven(first_call(paths, self.paths)):
            res.update(status='unproven', reason='dispatch: ' + (d.unproven(first_call(paths, self.paths)) if d
                                                                   else 'not checked'))
        else:
            res.update(status='proven-binary')
        res['seconds'] = round(seconds, 3)
        if getattr(self, 'cpu0', None) is not None:
            res['cpu_seconds'] = round(_cpu() - self.cpu0, 2)     # this process and its cvc5 children
        return res


# each function's Result, made once per image, paths, dispatch and timeout:
# the calls by op (binary/vecdo.py) stand on the instructions' kernel proofs
_proofs = {}


class Job:
    def __init__(self, name, op, paths, dispatch):
        self.name, self.op, self.paths, self.dispatch = name, op, paths, dispatch

    def prove(self, image, decoder, timeout, agreement):
        # the image is kept with its answers, so that its id names no other while they are
        key = (id(image), self.name, tuple(self.paths), self.dispatch, timeout)
        if key not in _proofs:
            _proofs[key] = (image, self._prove(image, decoder, timeout, agreement))
        return _proofs[key][1]

    def _prove(self, image, decoder, timeout, agreement):
        t0 = time.monotonic()
        self.cpu0 = _cpu()
        sym = image.by_name.get(self.name)
        early = binding(image, self.name, sym)
        if early is None and self.op is None:
            early = {'status': 'unproven', 'reason': 'the mnemonic fits no vector instruction of DECISIONS.md '
                                                     'section 3: no obligation'}
        tables = Tables(image) if early is None else None
        if early is None and tables.problem:
            early = {'status': 'unproven', 'reason': 'the kernel tables cannot be found: ' + tables.problem}
        if early is not None:
            return Result(self.name, self.op, [], None, time.monotonic() - t0, early)
        paths = [prove_path(image, decoder, self.op, sym, tables, p, timeout, agreement) for p in self.paths]
        d = None
        if self.dispatch:
            from q7prove.binary import vecdispatch
            d = vecdispatch.check(image, sym, tables, paths, kernel_args=kernel_registers(self.op.kind))
        res = Result(self.name, self.op, paths, d, time.monotonic() - t0)
        res.cpu0 = self.cpu0
        return res


def first_call(paths, results):
    """Each path's status as a first call (the dispatch's) may rely on it:
    that call enters the kernel by a clean tail call from a state of its
    own, which the path's proof covers only where it proved the kernel as a
    function of its own (PathResult.generic None)."""
    out = []
    for p, r in zip(paths, results):
        if p['status'] == 'proven-binary' and r.generic is not None:
            p = dict(p, status='proven only from its entry\'s own state (%s)' % r.generic)
        out.append(p)
    return out


def kernel_registers(kind):
    """(register, bits) of each argument of a kernel of kind: a uint32_t
    its low half."""
    from q7prove.binary.vecrun import PARAMS
    return [(reg, 32 if k == 'u32' else 64) for (_, k, _), reg in zip(PARAMS[kind], leaf_proof.ARG_REGS)]


def _cpu():
    import resource
    return sum(resource.getrusage(w).ru_utime + resource.getrusage(w).ru_stime
               for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def binding(image, name, sym):
    """{status, reason} when the symbol is not a function the proof can take; None when it is."""
    from q7prove.binary.prove import leaf_binding
    if sym is None:
        return {'status': 'absent', 'reason': 'not in the dynamic symbol table'}
    b = leaf_binding(image, name)
    return None if b is None else {'status': b[0], 'reason': b[1]}


def exported(image):
    """The q7v_ functions the library exports whose mnemonic is an instruction."""
    return sorted(n for n in image.by_name if n.startswith('q7v_') and vecspec.derive(n[4:]) is not None)


# the exported q7v_ functions that compute no datapath value, by name
# prefix: why none has an obligation
NOT_DATAPATH = (
    ('q7v_op_', 'reads the vector op table (metadata: its rows, and a row by mnemonic)'),
    ('q7v_select', 'chooses the kernel path (dispatch: each instruction\'s dispatch check proves what every '
                   'path it can reach computes)'),
    ('q7v_path', 'names the path in force, or whether this CPU runs a path (dispatch, not a datapath value)'),
)


def jobs(image, table=None, names=None, paths=PATHS, dispatch=True):
    """One job per name of names (default: every export) that is q7v_ and
    a vector instruction's mnemonic; the vector level's metadata and path
    control (NOT_DATAPATH) are listed with no obligation; the family
    answers for no other name (the accessors q7v_lane, ... are
    binary/vecaccess.py's; q7v_do_* binary/vecdo.py's)."""
    from q7prove.binary.api import NoObligation
    want = exported(image) if names is None else names
    out = []
    for n in want:
        if not n.startswith('q7v_'):
            continue
        if vecspec.derive(n[4:]) is not None:
            out.append(Job(n, vecspec.derive(n[4:]), paths, dispatch))
            continue
        why = next((w for p, w in NOT_DATAPATH if n.startswith(p)), None)
        if why is not None:
            out.append(NoObligation(n, 'not a vector instruction: %s' % why))
    return out


def emit(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()


def main():
    from q7prove.elf import image as elf_image, loaded as elf_loaded
    from q7prove.x86.decode import Decoder
    from q7prove.x86.agree import Agreement
    ap = argparse.ArgumentParser(prog='q7prove.binary.vector', description='prove the q7v_ functions of a library')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--loader', help='the q7pred executable that loads the library (its loaded-image child)')
    ap.add_argument('--function', action='append', default=[])
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('--paths', default=','.join(PATHS))
    ap.add_argument('--no-dispatch', action='store_true')
    a = ap.parse_args()
    paths = [p for p in a.paths.split(',') if p]
    if any(p not in PATHS for p in paths):
        emit({'error': '--paths: %s is not one of %s' % (a.paths, ', '.join(PATHS))})
        return 2
    try:
        image = elf_image.Image(a.lib, a.lib)
        names = a.function or exported(image)
        unknown = [n for n in names if not n.startswith('q7v_') or vecspec.derive(n[4:]) is None]
        if unknown:
            emit({'error': '--function %s: not q7v_ and the mnemonic of a vector instruction' % unknown[0]})
            return 2
        elf_loaded.attach(image, a.loader, a.lib, names)
    except (elf_image.ElfError, elf_loaded.LoadError) as e:
        emit({'error': str(e)})
        return 2
    decoder = Decoder(image)
    todo = jobs(image, None, names, paths, not a.no_dispatch)
    emit({'prover': 'z3 %s, cvc5 %s' % (z3.get_version_string(), second.version() or 'missing'),
          'functions': len(todo)})
    agreement = Agreement()
    try:
        for j in todo:
            emit({'start': j.name})
            emit(j.prove(image, decoder, a.timeout, agreement).final())
    finally:
        agreement.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
