# SPDX-License-Identifier: BSD-3-Clause
"""The binary prover `q7pred prove` runs: every leaf of a library's
machine code against what its name requires (docs/proofs.md).

  binary/prove.py --lib PATH --table FILE|- [--leaf NAME]... [--timeout S]

FILE (- for stdin) is the tables the CLI hands over (`q7pred prove
--write-table FILE` writes them): every row of the leaf table and every shape's operands, and
per leaf the shape its arguments are passed in and, from a probe report,
its bit map. One JSON object per line on stdout:

  {"prover": ..., "leaves": N}                        first
  {"leaf", "status", "seconds", "reason"?,            one per leaf, in table order
   "counterexample"?, "in_words"?, "predicted"?, "expected"?,
   "unwritten"?, "cpu_features"?}
  {"error": "..."}                                    unreadable input (exit 2)
  {"missing": "..."}                                  z3 or capstone missing (exit 77)

status: proven-binary, refuted (a counterexample), unproven (a reason:
the instruction and address, a loop, a timeout) or absent (the library
does not export the symbol). in_words are the counterexample in the
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
from q7prove.elf import image as elf_image
from q7prove.binary import leaf as leaf_proof
from q7prove.obligations import names
from q7prove.machine.memory import Refusal
from q7prove.x86.decode import Decoder


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


def prove_one(image, decoder, row, shapes, timeout):
    t0 = time.monotonic()
    deadline = t0 + timeout
    d = names.derive(row['leaf'])
    res = {'leaf': row['leaf']}
    findings = names.check_row(row, shapes, d) if d else []
    if d is None:
        res.update(status='unproven', reason='the name fits no group of DECISIONS.md section 1: no obligation')
    elif row['symbol'] not in image.by_name:
        res.update(status='absent', reason='not in the dynamic symbol table')
    elif image.by_name[row['symbol']].kind == elf_image.STT_GNU_IFUNC:
        res.update(status='unproven', reason='an IFUNC symbol: the leaf is the function its resolver picks when the '
                                             'library is loaded, which the prover does not follow')
    elif row['placement'] is None:
        res.update(status='unproven', reason='the probe report found no shape its arguments fit (--abi)')
    else:
        try:
            run = leaf_proof.LeafRun(image, decoder, row, shapes, row['placement'], row.get('bit_map'), deadline).run()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError()
            status, fail, model = leaf_proof.solve(run, left)
            if run.features:
                res['cpu_features'] = ' '.join(sorted(run.features))
            if status == 'proven-binary':
                res.update(status='proven-binary')
            elif status == 'refuted':
                shown = list(dict.fromkeys('%s%s' % (desc, ' at %#x' % addr if addr is not None else '')
                                           for desc, addr in fail))   # one claim owed on two paths: said once
                res.update(status='refuted', reason='; '.join(shown[:4]) + ('; ...' if len(shown) > 4 else ''))
                res.update(counterexample(run, model))
                res['clobbers'] = any(leaf_proof.caller_claim(desc) for desc, _ in fail)
            elif fail == 'timeout' or time.monotonic() >= deadline:
                res.update(status='unproven', reason='timeout after %g s (z3 found neither a proof nor a '
                                                     'counterexample in time)' % timeout)
            else:
                res.update(status='unproven', reason='z3: %s' % fail)
        except Refusal as e:
            res.update(status='unproven', reason=str(e))
        except TimeoutError:
            res.update(status='unproven', reason='timeout after %g s' % timeout)
        except z3.Z3Exception as e:
            res.update(status='unproven', reason='z3: %s' % e)
        except RecursionError:
            res.update(status='unproven', reason='a term too deep for the prover')
        except Exception as e:   # a mistake of the prover's own: named, and this leaf alone unproven
            traceback.print_exc()
            res.update(status='unproven', reason='the prover failed: %s: %s' % (type(e).__name__, e))
    if findings and res['status'] != 'absent':
        table = 'the leaf table\'s row %s: %s' % (row['leaf'], '; '.join(findings))
        res['reason'] = table + ('; the code: ' + res['reason'] if res.get('reason') else
                                 '; the code: proven against the name')
        res['status'] = 'refuted'
    res['seconds'] = round(time.monotonic() - t0, 3)
    return res


def main():
    ap = argparse.ArgumentParser(prog='binary/prove.py', description='prove a library\'s machine code')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--leaf', action='append', default=[])
    ap.add_argument('--timeout', type=float, default=60.0)
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
    try:
        image = elf_image.Image(a.lib)
    except elf_image.ElfError as e:
        emit({'error': str(e)})
        return 2
    decoder = Decoder(image)
    want = set(a.leaf)
    rows = [r for r in rows if not want or r['leaf'] in want]
    emit({'prover': 'z3 %s, capstone %s' % (z3.get_version_string(), capstone.__version__), 'leaves': len(rows)})
    for row in rows:
        emit(prove_one(image, decoder, row, shapes, a.timeout))
    return 0


if __name__ == '__main__':
    sys.exit(main())
