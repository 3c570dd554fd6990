# SPDX-License-Identifier: BSD-3-Clause
"""The second solver: cvc5 (Debian's `cvc5`, its command-line binary)
answers again, from SMT-LIB 2 text, the question whose unsat makes a leaf
proven. A proof is two solvers agreeing; cvc5 missing, unable to read the
text, answering sat or unknown, or out of time leaves the leaf unproven.

The text is z3's own printing of the question (Solver.to_smt2), with two
changes, each of which can only make the question easier to satisfy, so
cvc5's unsat still answers the original:
  - an assumption that shares no variable with the claims, directly or
    through other assumptions, is left out;
  - z3's fp.to_ieee_bv, which the standard lacks (a NaN has many bit
    patterns), is a fresh bit vector whose float is the argument: for a
    NaN, any NaN's bits.
And one that asks the same question: z3's simplifier writes bvurem_i
(bvudiv_i, bvsdiv_i, bvsrem_i, bvsmod_i), the operation whose value at a
zero divisor is left open, where the terms around it make that value not
matter; its rewrite holds whatever that value is, so also for the
standard's bvurem, which the text names instead.
cvc5 runs as a child process with its own time limit; Pending is one
such run, started at once and read when its answer is needed.
$Q7PRED_CVC5 names another binary than `cvc5` on PATH.
"""
import os
import re
import shutil
import subprocess
import tempfile
import time

import z3

EXE = os.environ.get('Q7PRED_CVC5') or 'cvc5'   # another cvc5 binary (a path, or a name on PATH)
# every float width (binary16 is experimental in cvc5 1.0), stdin as SMT-LIB 2
OPTIONS = ['--lang=smt2', '--fp-exp']
_version = []


def version():
    """cvc5's version ('1.0.3'), or None when it is not installed or does not run."""
    if not _version:
        v = None
        exe = shutil.which(EXE)
        if exe:
            try:
                out = subprocess.run([exe, '--version'], capture_output=True, text=True, timeout=20).stdout
                found = re.search(r'cvc5 version (\S+)', out)
                v = found.group(1) if found else None
            except (OSError, subprocess.SubprocessError):
                v = None
        _version.append(v)
    return _version[0]


_TOKEN = re.compile(r'\|[^|]*\||[^\s()]+')
_DECLARED = re.compile(r'\(declare-fun (\|[^|]*\||[^\s()]+) ')


def benchmark(assertions):
    """z3's SMT-LIB 2 text of the conjunction (Solver.to_smt2 without a
    solver: asserting into one costs more than the printing)."""
    if not assertions:
        assertions = [z3.BoolVal(True)]
    rest, last = assertions[:-1], assertions[-1]
    arr = (z3.Ast * len(rest))(*[a.as_ast() for a in rest])
    return z3.Z3_benchmark_to_smtlib_string(last.ctx.ref(), '', '', 'unknown', '', len(rest), arr, last.as_ast())


def constants(e):
    """The names of e's uninterpreted constants."""
    return set(_DECLARED.findall(benchmark([e])))


def sliced(assumptions, goal):
    """The assumptions the goal reaches through shared variables."""
    need = constants(goal)
    declared = set(_DECLARED.findall(benchmark(list(assumptions))))
    rest = [(a, set(_TOKEN.findall(a.sexpr())) & declared) for a in assumptions]
    kept, grew = [], True
    while grew:
        grew = False
        left = []
        for a, names in rest:
            if names & need:
                kept.append(a)
                need |= names
                grew = True
            else:
                left.append((a, names))
        rest = left
    return kept


def _standard(assertions):
    """The assertions with every fp.to_ieee_bv(x) a fresh bit vector b and
    to_fp(b) = x added (structural equality: for a NaN x any NaN pattern)."""
    apps, seen, stack = [], set(), list(assertions)
    while stack:
        t = stack.pop()
        if t.get_id() in seen or not z3.is_app(t):
            continue
        seen.add(t.get_id())
        if t.decl().kind() == z3.Z3_OP_FPA_TO_IEEE_BV:
            apps.append(t)
        stack.extend(t.children())
    if not apps:
        return list(assertions)
    pairs, defs = [], []
    for t in apps:
        x = t.arg(0)
        b = z3.FreshConst(z3.BitVecSort(t.size()), 'ieee_bits')
        pairs.append((t, b))
        defs.append(z3.fpBVToFP(b, x.sort()) == x)
    return [z3.substitute(d, *pairs) for d in defs] + [z3.substitute(a, *pairs) for a in assertions]


_INTERNAL_DIV = re.compile(r'(?<![\w|])(bvudiv|bvurem|bvsdiv|bvsrem|bvsmod)_i(?![\w|])')


def smtlib(assumptions, goal):
    """The SMT-LIB 2 text of `assumptions and goal` as cvc5 is asked it."""
    question = sliced(assumptions, goal) + [goal]
    text = benchmark(question)
    if 'fp.to_ieee_bv' in text:
        text = benchmark(_standard(question))
    text = _INTERNAL_DIV.sub(lambda m: m.group(1), text)
    floats = any(w in text for w in ('FloatingPoint', 'RoundingMode', '(fp', 'Float16', 'Float32', 'Float64'))
    logic = 'QF_ABVFP' if '(Array ' in text else 'QF_BVFP' if floats else 'QF_BV'
    return '(set-logic %s)\n%s' % (logic, text)


def options(text):
    """cvc5's options for a question: a bit-vector one alone (QF_BV) bit-blasted
    whole at once (eager), which decides the wide ite terms merged paths leave
    where its lazy solver times out."""
    return OPTIONS + (['--bitblast=eager'] if text.startswith('(set-logic QF_BV)') else [])


class Pending:
    """cvc5 deciding one question, started now; answer() waits for it:
    ('unsat' | 'sat' | 'unknown' | 'timeout' | 'error' | 'missing', detail)."""

    def __init__(self, assumptions, goal, timeout_s):
        self.timeout_s = max(0.05, timeout_s)
        self.proc, self.result = None, None
        self.started = self.ended = time.monotonic()
        exe = shutil.which(EXE)
        if exe is None or version() is None:
            self.result = ('missing', 'cvc5 is not installed (Debian: cvc5)')
            return
        try:
            text = smtlib(assumptions, goal)
        except z3.Z3Exception as e:
            self.result = ('error', 'the obligation has no SMT-LIB text: %s' % e)
            return
        # the text from an unlinked file: nothing to clean up, whatever ends this process
        with tempfile.TemporaryFile('w+') as f:
            f.write(text)
            f.seek(0)
            self.started = time.monotonic()
            try:
                self.proc = subprocess.Popen([exe] + options(text) + ['--tlimit-per=%d' % int(self.timeout_s * 1000)],
                                             stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            except OSError as e:
                self.result = ('missing', 'cvc5 does not run: %s' % e)

    def done(self):
        """Whether the answer is in, without waiting."""
        if self.result is None and self.proc is not None and self.proc.poll() is not None:
            self.ended = time.monotonic()
            self.result = self._read()
        return self.result is not None

    def answer(self):
        if self.result is None:
            self.result = self._read()
            self.ended = time.monotonic()
        return self.result

    @property
    def seconds(self):
        """cvc5's time, as far as this process saw it end."""
        return self.ended - self.started

    def _read(self):
        try:
            # the grace past cvc5's own limit only guards against a hang
            out, err = self.proc.communicate(timeout=self.timeout_s + 2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()
            return 'timeout', 'cvc5 did not answer within %g s' % self.timeout_s
        words = out.split()
        if words == ['unsat']:
            return 'unsat', None
        if words == ['sat']:
            return 'sat', 'cvc5 finds a counterexample'
        if words == ['unknown']:
            if time.monotonic() - self.started >= 0.9 * self.timeout_s:
                return 'timeout', 'cvc5 did not answer within %g s' % self.timeout_s
            return 'unknown', 'cvc5 answers unknown'
        msg = [l for l in (out + '\n' + err).splitlines() if l.strip()]
        return 'error', 'cvc5 failed (exit %s): %s' % (self.proc.returncode, msg[0][:200] if msg else 'no output')
