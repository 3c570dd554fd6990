# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.binary: one leaf of a small library proven from its machine
code, another refuted with a counterexample on which the spec (DECISIONS.md
section 2: unsigned compares act on all 32 bits) and the code differ.
Needs the CLI's tables: $Q7PRED prove --write-table (skipped without it).
Also the lane classes of binary/lanes.py and the executor's fork."""
import json
import os
import subprocess
import time
import types

import pytest

z3 = pytest.importorskip('z3')
pytest.importorskip('capstone')
from q7prove.binary import prove  # noqa: E402
from q7prove.binary.executor import Executor  # noqa: E402
from q7prove.machine.memory import Memory  # noqa: E402
from q7prove.machine.state import State  # noqa: E402
from q7prove.elf import image  # noqa: E402
from q7prove.x86.agree import Agreement  # noqa: E402
from q7prove.x86.decode import Decoder  # noqa: E402

LIBRARY = '''
#include <stdint.h>
void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
/* compares the low bytes only, where the spec compares all 32 bits */
void module__xdref_ltu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{ (void)xs; *r = (uint8_t)a < (uint8_t)b; }
'''


@pytest.fixture
def agreement():
    a = Agreement()
    yield a
    a.close()


@pytest.fixture
def tables(tmp_path):
    q7pred = os.environ.get('Q7PRED')
    if not q7pred:
        pytest.skip('needs $Q7PRED (the CLI) for the leaf tables')
    path = tmp_path / 'tables.json'
    subprocess.run([q7pred, 'prove', '--write-table', str(path)], check=True)
    t = json.loads(path.read_text())
    return {r['leaf']: r for r in t['leaves']}, t['shapes']


def test_proven_and_refuted(build_so, tables, agreement):
    rows, shapes = tables
    img = image.Image(build_so('lib', LIBRARY))
    dec = Decoder(img)
    ok = prove.prove_one(img, dec, rows['eq_1_8_8'], shapes, 60, agreement).final()
    assert ok['status'] == 'proven-binary', ok
    bad = prove.prove_one(img, dec, rows['ltu_1_8_8'], shapes, 60, agreement).final()
    assert bad['status'] == 'refuted', bad
    a, b = bad['in_words'][:2]
    assert ((a & 0xff) < (b & 0xff)) != (a < b), bad['in_words']
    assert int(bad['expected']['result'], 16) == int(a < b)


def test_absent_leaf(build_so, tables, agreement):
    rows, shapes = tables
    img = image.Image(build_so('lib', LIBRARY))
    r = prove.prove_one(img, Decoder(img), rows['leu_1_8_8'], shapes, 60, agreement).final()
    assert r['status'] == 'absent'


def test_words_of():
    assert prove.words_of(0x1122334455667788, 2) == [0x55667788, 0x11223344]


# ---- binary/lanes.py: one second-solver question for like lanes ---------

def _valid(claim, assumptions=()):
    import z3
    s = z3.Solver()
    s.add(*assumptions)
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


def _vector(name, bits, lane_bits):
    """An input as the prover makes it: the concatenation of one variable
    per lane (lane 0 lowest); -> (the input, its lane variables)."""
    import z3
    parts = [z3.BitVec('%s_lane%d' % (name, k), lane_bits) for k in range(bits // lane_bits)]
    return z3.Concat(*reversed(parts)), parts


def _answers_for(assumptions, claims, lane_vars):
    """Whether every asked question and equality of lanes.classes being
    valid makes every lane's claim valid, as the module promises, and the
    lanes each in one class."""
    from q7prove.binary import lanes
    asked, side = lanes.classes(assumptions, claims, lane_vars)
    covered = sorted(k for _, ks in asked for k in ks)
    assert covered == sorted(k for k, _ in claims)
    questions_hold = all(_valid(q, assumptions) for q, _ in asked) and all(_valid(e) for e in side)
    claims_hold = all(_valid(c, assumptions) for _, c in claims)
    return asked, questions_hold, claims_hold


def test_lanes_narrow_keeps_value():
    import z3
    from q7prove.binary import lanes
    p = [z3.BitVec('p%d' % i, 1) for i in range(4)]
    zero = z3.BitVecVal(0, 1)
    x = z3.Concat(zero, p[1], zero, p[0])
    y = z3.Concat(p[3], p[2], z3.BitVecVal(0, 2))
    for h in range(4):
        for l in range(h + 1):
            for c in (1, 3, 5, 7, 9, 15):
                for e in (z3.Extract(h, l, c * x), z3.Extract(h, l, z3.BitVecVal(c, 4) * y + x * y - ~x),
                          z3.Extract(h, l, z3.If(p[0] == 1, x ^ y, -y) | z3.ZeroExt(2, z3.Extract(2, 1, y)))):
                    assert _valid(lanes.narrow(e) == e), (h, l, c, e)


def test_lanes_alike_asked_once():
    """Sixteen lanes of a 16-bit compare under a predicate whose live bits
    (bit 0 of each 2-bit field) a multiply spreads over their fields, so
    the term of lane k names the fields below it: one question, and the
    equalities that free each lane of the others."""
    import z3
    (a, a_lanes), (pred, pred_lanes) = _vector('a', 256, 16), _vector('pred', 32, 2)
    spread = 3 * (pred & 0x55555555)
    claims = []
    for k in range(16):
        lane = z3.Extract(16 * k + 15, 16 * k, a)
        live = z3.Extract(2 * k, 2 * k, pred) == 1
        got = z3.If(z3.Extract(2 * k + 1, 2 * k + 1, spread) == 1, z3.ULT(lane, 100), False)
        claims.append((k, got == z3.And(live, z3.ULT(lane, 100))))
    asked, questions_hold, claims_hold = _answers_for([], claims, [a_lanes, pred_lanes])
    assert claims_hold and questions_hold
    assert len(asked) <= 2


def test_lanes_one_wrong_lane_asked():
    """Lane 5 differs from the spec: some question must fail."""
    import z3
    (a, a_lanes), (b, b_lanes) = _vector('a', 128, 16), _vector('b', 128, 16)
    claims = []
    for k in range(8):
        x, y = z3.Extract(16 * k + 15, 16 * k, a), z3.Extract(16 * k + 15, 16 * k, b)
        got = z3.If(x == 7, False, z3.ULT(x, y)) if k == 5 else z3.ULT(x, y)
        claims.append((k, got == z3.ULT(x, y)))
    asked, questions_hold, claims_hold = _answers_for([], claims, [a_lanes, b_lanes])
    assert not claims_hold and not questions_hold


def test_lanes_other_lane_read_not_hidden():
    """Lane 3's value reads lane 2 (a wrong shuffle): it is not lane-local,
    and the question asked for it fails."""
    import z3
    a, a_lanes = _vector('a', 64, 16)
    claims = []
    for k in range(4):
        src = 2 if k == 3 else k
        got = z3.Extract(16 * src + 15, 16 * src, a)
        claims.append((k, got + 1 == z3.Extract(16 * k + 15, 16 * k, a) + 1))
    asked, questions_hold, claims_hold = _answers_for([], claims, [a_lanes])
    assert not claims_hold and not questions_hold


def test_lanes_other_lanes_path_dropped():
    """A path condition on other lanes (a merge's either-way) is dropped:
    the question is stronger, and asked once z3 proves it."""
    import z3
    a, a_lanes = _vector('a', 64, 16)
    lane = lambda k: z3.Extract(16 * k + 15, 16 * k, a)
    either = z3.And(*[z3.Or(lane(j) == 0, lane(j) != 0) for j in range(4)])
    claims = [(k, z3.Implies(either, lane(k) & 1 == lane(k) % 2)) for k in range(4)]
    asked, questions_hold, claims_hold = _answers_for([], claims, [a_lanes])
    assert claims_hold and questions_hold and len(asked) == 1
    # a path condition the lane needs is kept: lane 0's claim holds only where lane 1 is 0
    needs = [(k, z3.Implies(lane(1) == 0, z3.Or(lane(1) != 0, k != 0, lane(0) == lane(0) + lane(1))))
             for k in range(4)]
    asked, questions_hold, claims_hold = _answers_for([], needs, [a_lanes])
    assert claims_hold and questions_hold


def test_lanes_deep_or_quantified_claims_asked_as_they_are():
    """A claim deeper than the walkers take, or one under a quantifier
    (whose variables a walk cannot see), is asked alone and unchanged:
    never walked, so never collapsed with another lane's."""
    import sys
    import z3
    from q7prove.binary import lanes
    x = [z3.BitVec('x%d' % k, 8) for k in range(2)]
    deep = []
    for k in range(2):
        t = x[k]
        for j in range(lanes.MAX_DEPTH + 20):
            t = t + j if j % 2 else t ^ j
        deep.append((k, t == t))
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(lanes.MAX_DEPTH + 100)      # a walk of the deep claim would overflow here
        asked, side = lanes.classes([], deep, [x])
    finally:
        sys.setrecursionlimit(limit)
    assert [ks for _, ks in asked] == [[0], [1]] and all(q.eq(c) for (q, _), (_, c) in zip(asked, deep))
    y = z3.BitVec('y', 8)
    quantified = [(k, z3.ForAll([y], x[k] + y == x[0] + y)) for k in range(2)]
    asked, side = lanes.classes([], quantified, [x])
    assert [ks for _, ks in asked] == [[0], [1]]
    assert not _valid(quantified[1][1]) and not all(_valid(q) for q, _ in asked)


# ---- the executor's fork: a branch splits a path into the sides that may
# hold, asking z3 only what no earlier answer settles. A side is kept without
# a question only where that is certain (the other side was pruned, or a
# model of the path satisfies it); a side is dropped only on z3's unsat.

class Counting(z3.Solver):
    """A z3 solver that counts the questions it is asked."""

    def __init__(self):
        super().__init__()
        self.asked = 0

    def check(self, *assumptions):
        self.asked += 1
        return super().check(*assumptions)


def executor():
    ex = Executor.__new__(Executor)
    ex.solver, ex._timeout_ms = Counting(), None
    ex.limits = types.SimpleNamespace(deadline=time.monotonic() + 60)
    ex.pruned, ex.forks = [], {}
    return ex


X = z3.BitVec('x', 8)


def holds(s, value):
    """Whether s's path condition holds for x = value."""
    return z3.is_true(z3.simplify(z3.substitute(z3.And(*s.cond), (X, z3.BitVecVal(value, 8)))))


def test_a_pruned_first_side_leaves_the_second_unasked():
    ex, s = executor(), State(Memory(None), 0)
    s.cond = (z3.UGT(X, 10),)
    out = ex.fork(s, X == 3, 1, 2)
    assert [t.pc for t in out] == [2] and len(ex.pruned) == 1
    assert ex.solver.asked == 1
    assert holds(out[0], 11) and not holds(out[0], 3)


def test_a_model_of_the_path_answers_the_side_it_satisfies():
    ex, s = executor(), State(Memory(None), 0)
    high = [t for t in ex.fork(s, z3.UGT(X, 100), 1, 2) if t.pc == 1][0]
    assert ex.solver.asked == 2 and high.model is not None
    out = ex.fork(high, z3.UGT(X, 50), 3, 4)
    # X > 50 follows from X > 100: the model answers it; X <= 50 is asked and pruned
    assert [t.pc for t in out] == [3] and ex.solver.asked == 3 and len(ex.pruned) == 1


def test_a_model_of_another_condition_is_not_used():
    ex, s = executor(), State(Memory(None), 0)
    high = [t for t in ex.fork(s, z3.UGT(X, 100), 1, 2) if t.pc == 1][0]
    high.cond = high.cond + (z3.ULT(X, 120),)        # the model no longer names this path
    asked = ex.solver.asked
    out = ex.fork(high, X == 101, 3, 4)
    # both sides asked: the old model (some X > 100) says nothing about this path's X
    assert ex.solver.asked == asked + 2 and sorted(t.pc for t in out) == [3, 4]


def test_a_side_is_dropped_only_on_unsat():
    ex, s = executor(), State(Memory(None), 0)
    out = ex.fork(s, X == X, 1, 2)
    assert [t.pc for t in out] == [1] and len(ex.pruned) == 1
    assert z3.Solver().check(ex.pruned[0]) == z3.unsat


# ---- the dispatch check's emulator: the library as the process has it ----------------

EMULATED = '''
static int set_up;
static volatile int written_by_loader = 7;
__attribute__((constructor)) static void init(void) { set_up = 42; }
int get_set_up(void) { return set_up; }
int get_written(void) { return written_by_loader; }
int with_canary(int i) { volatile char buf[32]; buf[i & 31] = (char)i; return buf[i & 31]; }
'''


def test_emulator_runs_the_constructors(build_so):
    pytest.importorskip('unicorn')
    from q7prove.binary import vecdispatch
    img = image.Image(build_so('emu', EMULATED))
    em = vecdispatch.Emulator(img)
    assert em.call(img.by_name['get_set_up'].value) & 0xffffffff == 42    # the file holds 0
    assert em.call(img.by_name['get_written'].value) & 0xffffffff == 7


def test_emulator_has_a_thread_pointer(build_so):
    # the stack protector reads its canary at %fs:0x28, as every thread's TLS block holds it
    pytest.importorskip('unicorn')
    from q7prove.binary import vecdispatch
    img = image.Image(build_so('emu', EMULATED, '-fstack-protector-all'))
    assert bytes.fromhex('64488b042528000000') in img.data       # mov %fs:0x28, %rax
    assert vecdispatch.Emulator(img).call(img.by_name['with_canary'].value, 5) & 0xff == 5


def test_emulator_takes_a_hostile_init_array_size(build_so):
    # a DT_INIT_ARRAYSZ past the library: every run fails, naming it (never a read of 2^40 bytes)
    pytest.importorskip('unicorn')
    from q7prove.binary import vecdispatch
    img = image.Image(build_so('emu', EMULATED))
    img.dyn[vecdispatch.DT_INIT_ARRAYSZ] = 1 << 40
    with pytest.raises(ValueError, match='DT_INIT_ARRAYSZ'):
        vecdispatch.Emulator(img).call(img.by_name['get_written'].value)


def test_emulator_refuses_a_library_past_its_span_limit(build_so):
    # a .bss of 512 MiB: refused at once, naming the span (never a page-by-page walk of it)
    pytest.importorskip('unicorn')
    from q7prove.binary import vecdispatch
    img = image.Image(build_so('big', 'static char big[512 << 20]; char *at(int i) { return &big[i]; }'))
    assert img.span()[1] - img.span()[0] > vecdispatch.SPAN_LIMIT
    with pytest.raises(ValueError, match='the library spans 0x[0-9a-f]+ bytes'):
        vecdispatch.Emulator(img)


def test_emulator_fails_on_bytes_the_load_changed(build_so):
    pytest.importorskip('unicorn')
    from q7prove.binary import vecdispatch
    img = image.Image(build_so('emu', EMULATED))
    # where get_written reads: the one .data word of the library (its value 7 in the file)
    data = [s for s in img.sections if s['name'] == '.data'][0]
    at = next(a for a in range(data['addr'], data['addr'] + data['size'], 4)
              if img.file_bytes(a, 4) == (7).to_bytes(4, 'little'))
    img.loaded = types.SimpleNamespace(changed=lambda: [(at, at + 4, 'written while loading')],
                                       permissions=lambda a: 'rwxp')
    em = vecdispatch.Emulator(img)
    assert em.call(img.by_name['get_set_up'].value) & 0xffffffff == 42     # another word: read as before
    with pytest.raises(ValueError, match='otherwise than its file .written while loading.'):
        em.call(img.by_name['get_written'].value)
