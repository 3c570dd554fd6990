#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The vector level's lane and field accessors and the merge proven from the
# machine code (prover/q7prove/binary/vecaccess.py, docs/proofs.md), the
# family run alone (Q7PRED_PROVE_FAMILIES=vecaccess); the six of
# build/libq7pred.so are proven in tests/test_prove_all.sh's whole run:
#   1. tests/prove/vecaccess_planted.c built here twice: as is (the
#      controls, first checked natively against the rules below on random
#      and edge arguments) all six proven-binary; with -DPLANTED (one bug
#      in each) all six refuted, each counterexample called natively
#      (ctypes) and the result compared with the rule's value computed
#      here from DECISIONS.md section 3 and <q7pred_vec.h> (little-endian
#      lanes, lane k's field bits [k*w, k*w+w), live iff the field's
#      lowest bit, outside the enum or past the lanes: 0, nothing stored,
#      m, old): native and rule differ, the report's expected value is the
#      rule's and its predicted value the native one; and built with
#      -DPLANTED_ALIAS, a q7v_merge right with out apart from its inputs
#      (natively, on the counterexample) refuted in the case out == result,
#      the native call with out the result's buffer wrong as reported;
#   2. the family's format table agrees with q7_lanefmt as the C
#      preprocessor reads <q7pred_vec.h>.
# slow: proves the six functions of two libraries and q7v_merge of a third, by cases (about 25 s CPU)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
CC=${CC:-cc}
prove_test_begin

"$Q7PRED" prove --write-table "$tmp/table.json" >"$tmp/t.out" 2>&1 ||
    { bad "cannot write the tables: $(tail -n 1 "$tmp/t.out")"; exit 1; }
prove() { # lib out [prover options]: the vecaccess family alone, no leaf
    Q7PRED_PROVE_FAMILIES=vecaccess PYTHONPATH=prover "$PYTHON" -m q7prove.binary --lib "$1" \
        --table "$tmp/table.json" --all --no-leaves --loader "$Q7PRED" "${@:3}" >"$2" 2>"$2.err" ||
        bad "the prover failed on $1: $(tail -n 2 "$2.err")"
}
SIX="q7v_lane q7v_set_lane q7v_field q7v_set_field q7v_merge_vbool q7v_merge"
verdicts() { # out status: each of the six has that status
    "$PYTHON" - "$1" "$2" $SIX <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if 'function' in r:
        rows[r['function']] = r
bad = [(n, rows.get(n)) for n in sys.argv[3:] if rows.get(n, {}).get('status') != sys.argv[2]]
for n, r in bad:
    print('FAIL: %s: %s' % (n, r))
sys.exit(1 if bad else 0)
PY
}

# ---- 1. controls and planted bugs
"$CC" -O2 -shared -fPIC -Wall -Wextra -Werror -o "$tmp/control.so" tests/prove/vecaccess_planted.c &&
"$CC" -O2 -shared -fPIC -Wall -Wextra -Werror -DPLANTED -o "$tmp/planted.so" tests/prove/vecaccess_planted.c ||
    { bad "cannot build tests/prove/vecaccess_planted.c"; exit 1; }
cat >"$tmp/rules.py" <<'PY'
# the rules, from DECISIONS.md section 3 and <q7pred_vec.h>, and native calls
import ctypes
W = {0: 1, 1: 2, 2: 4, 3: 2, 4: 4}          # bytes per lane of 2NX8, NX16, N_2X32, NXF16, N_2XF32


def ok(f, k):
    return f in W and k < 64 // W[f]


def lane(v, f, k):
    return int.from_bytes(v[k * W[f]:(k + 1) * W[f]], 'little') if ok(f, k) else 0


def set_lane(v, f, k, x):
    if not ok(f, k):
        return bytes(v)
    w = W[f]
    return v[:k * w] + (x & (1 << 8 * w) - 1).to_bytes(w, 'little') + v[(k + 1) * w:]


def field(m, f, k):
    return (m >> k * W[f]) & (1 << W[f]) - 1 if ok(f, k) else 0


def set_field(m, f, k, x):
    if not ok(f, k):
        return m
    w = W[f]
    ones = ((1 << w) - 1) << k * w
    return (m & ~ones) | ((x << k * w) & ones)


def merge_vbool(result, old, pred, f):
    if f not in W:
        return old
    return sum((field(result if field(pred, f, k) & 1 else old, f, k)) << k * W[f] for k in range(64 // W[f]))


def merge(result, old, pred, f):
    if f not in W:
        return bytes(old)
    return b''.join((result if field(pred, f, k) & 1 else old)[k * W[f]:(k + 1) * W[f]]
                    for k in range(64 // W[f]))


class Native:
    def __init__(self, path):
        self.lib = lib = ctypes.CDLL(path)
        u32, u64, p = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p
        for n, res, args in (('q7v_lane', u32, [p, u32, u32]), ('q7v_set_lane', None, [p, u32, u32, u32]),
                             ('q7v_field', u32, [u64, u32, u32]), ('q7v_set_field', u64, [u64, u32, u32, u32]),
                             ('q7v_merge_vbool', u64, [u64, u64, u64, u32]),
                             ('q7v_merge', None, [p, p, p, u64, u32])):
            getattr(lib, n).restype, getattr(lib, n).argtypes = res, args

    def call(self, name, a):
        """(value the rule gives, value the native call gives) for arguments a
        (ints; a vector as one number, byte 0 lowest)."""
        vec = lambda x: x.to_bytes(64, 'little')
        buf = lambda b: ctypes.create_string_buffer(b, 64)
        f = a['f']
        if name == 'q7v_lane':
            v = vec(a['v'])
            return lane(v, f, a['k']), self.lib.q7v_lane(buf(v), f, a['k'])
        if name == 'q7v_set_lane':
            v = buf(vec(a['v']))
            self.lib.q7v_set_lane(v, f, a['k'], a['x'])
            return int.from_bytes(set_lane(vec(a['v']), f, a['k'], a['x']), 'little'), int.from_bytes(v.raw, 'little')
        if name == 'q7v_field':
            return field(a['m'], f, a['k']), self.lib.q7v_field(a['m'], f, a['k'])
        if name == 'q7v_set_field':
            return set_field(a['m'], f, a['k'], a['x']), self.lib.q7v_set_field(a['m'], f, a['k'], a['x'])
        if name == 'q7v_merge_vbool':
            return (merge_vbool(a['result'], a['old'], a['pred'], f),
                    self.lib.q7v_merge_vbool(a['result'], a['old'], a['pred'], f))
        result, old = buf(vec(a['result'])), buf(vec(a['old']))
        out = {'result': result, 'old': old}.get(a.get('alias'), buf(bytes(64)))   # out may be result or old
        self.lib.q7v_merge(out, result, old, a['pred'], f)
        return (int.from_bytes(merge(vec(a['result']), vec(a['old']), a['pred'], f), 'little'),
                int.from_bytes(out.raw, 'little'))
PY
"$PYTHON" - "$tmp" "$tmp/control.so" <<'PY' || bad "the controls are wrong natively (or the rules here are)"
# the controls against the rules on edge and random arguments: the rules and the controls agree
import random, sys
sys.path.insert(0, sys.argv[1])
import rules
lib = rules.Native(sys.argv[2])
rnd = random.Random(7)
wrong = []
for n in range(3000):
    f = rnd.choice([0, 1, 2, 3, 4, 5, 6, 0x80000000, 0xffffffff])
    k = rnd.choice([0, 1, 15, 16, 31, 32, 63, 64, 0xffffffff, rnd.getrandbits(6)])
    a = {'f': f, 'k': k, 'x': rnd.getrandbits(32), 'v': rnd.getrandbits(512), 'm': rnd.getrandbits(64),
         'result': rnd.getrandbits(512 if n % 2 else 64), 'old': rnd.getrandbits(512 if n % 2 else 64),
         'pred': rnd.getrandbits(64)}
    names = ['q7v_lane', 'q7v_set_lane', 'q7v_field', 'q7v_set_field', 'q7v_merge' if n % 2 else 'q7v_merge_vbool']
    for name in names:
        want, got = lib.call(name, a)
        if want != got:
            wrong.append((name, a))
print('\n'.join('FAIL: control %s on %s' % w for w in wrong[:5]) or 'ok: the controls follow the rules natively')
sys.exit(1 if wrong else 0)
PY
prove "$tmp/control.so" "$tmp/control.jsonl"
verdicts "$tmp/control.jsonl" proven-binary && ok "controls: the six proven-binary" ||
    bad "controls: not all six proven-binary"
refuted() { # lib out functions...: each refuted, its counterexample shown wrong natively
"$PYTHON" - "$tmp" "$@" <<'PY' || fail=1
import json, sys
sys.path.insert(0, sys.argv[1])
import rules
lib = rules.Native(sys.argv[2])
rows = {}
for line in open(sys.argv[3]):
    r = json.loads(line)
    if 'function' in r:
        rows[r['function']] = r
bad = []
for name in sys.argv[4:]:
    r = rows.get(name, {})
    ce = r.get('counterexample')
    if r.get('status') != 'refuted' or not ce:
        bad.append('%s: %s, not refuted with a counterexample' % (name, r))
        continue
    if any(k.startswith('high_') for k in ce):
        bad.append('%s: the counterexample needs the caller\'s upper register bits: %s' % (name, ce))
        continue
    a = {k: int(v, 16) for k, v in ce.items()}
    a['alias'] = next((x for x in ('result', 'old') if r.get('case', '').endswith('out == ' + x)), None)
    if (a['alias'] is not None) != (name == 'q7v_merge' and len(sys.argv) == 5):
        bad.append('%s: refuted in the case %s' % (name, r.get('case')))
        continue
    want, got = lib.call(name, a)
    if a['alias'] and lib.call(name, dict(a, alias=None))[1] != want:
        bad.append('%s: wrong natively on %s with out apart as well' % (name, ce))
        continue
    key = 'return' if name in ('q7v_lane', 'q7v_field', 'q7v_set_field', 'q7v_merge_vbool') else \
        'v' if name == 'q7v_set_lane' else 'out'
    expected, predicted = r.get('expected', {}).get(key), r.get('predicted', {}).get(key)
    if want == got:
        bad.append('%s: natively on %s it gives %#x, as the rule: not a bug shown' % (name, ce, got))
    elif expected is None or int(expected, 16) != want:
        bad.append('%s: the report expects %s, the rule here gives %#x' % (name, expected, want))
    elif predicted is None or int(predicted, 16) != got:
        bad.append('%s: the report predicts %s, the native call gives %#x' % (name, predicted, got))
    else:
        print('ok: %s refuted (%s): native %#x, rule %#x' % (name, r.get('case'), got, want))
print('\n'.join('FAIL: planted ' + b for b in bad) or 'ok: the planted bugs refuted and shown natively')
sys.exit(1 if bad else 0)
PY
}
prove "$tmp/planted.so" "$tmp/planted.jsonl"
refuted "$tmp/planted.so" "$tmp/planted.jsonl" $SIX
# out == result: a merge right with out apart, wrong when out is result (the other five as in the controls)
"$CC" -O2 -shared -fPIC -Wall -Wextra -Werror -DPLANTED_ALIAS -o "$tmp/alias.so" tests/prove/vecaccess_planted.c ||
    bad "cannot build tests/prove/vecaccess_planted.c -DPLANTED_ALIAS"
prove "$tmp/alias.so" "$tmp/alias.jsonl" --done q7v_lane --done q7v_set_lane --done q7v_field --done q7v_set_field \
    --done q7v_merge_vbool
refuted "$tmp/alias.so" "$tmp/alias.jsonl" q7v_merge

# ---- 2. the format table against the header
cat >"$tmp/fmts.c" <<'C'
#include <stdio.h>
#include "q7pred_vec.h"
int main(void)
{
    printf("Q7_2NX8=%d Q7_NX16=%d Q7_N_2X32=%d Q7_NXF16=%d Q7_N_2XF32=%d count=%d\n", Q7_2NX8, Q7_NX16,
           Q7_N_2X32, Q7_NXF16, Q7_N_2XF32, Q7_LANEFMT_COUNT);
    return 0;
}
C
"$CC" -std=c11 -I include -o "$tmp/fmts" "$tmp/fmts.c" && "$tmp/fmts" >"$tmp/fmts.out" ||
    bad "cannot build a program of include/q7pred_vec.h's constants"
PYTHONPATH=prover "$PYTHON" - "$tmp/fmts.out" <<'PY' || bad "the family's format table and q7_lanefmt disagree"
import sys
from q7prove.binary import vecaccess, vecspec
got = dict(x.split('=') for x in open(sys.argv[1]).read().split())
want = {n: str(c) for c, (n, _) in enumerate(vecaccess.FORMATS)}
want['count'] = str(len(vecaccess.FORMATS))
assert got == want, (got, want)
# the widths as the vector family's mnemonic spellings have them
widths = {'Q7_' + name: w for name, w, _ in vecspec.FORMATS.values()}
assert all(widths[n] == w for n, w in vecaccess.FORMATS), (widths, vecaccess.FORMATS)
print('ok: the family\'s formats are q7_lanefmt\'s values in order, their widths the mnemonics\' ones')
PY
exit $fail
