# SPDX-License-Identifier: BSD-3-Clause
"""The binary translator's test on whole leaves: for every leaf a library
exports, the z3 terms the symbolic run of its machine code leaves in its
outputs, evaluated on edge and random inputs, must equal what a native
call of the same library leaves there (ctypes, in this process).

  binary/check_translator.py --lib PATH --table FILE [--native PATH] [--cases N] [--seed S] [--leaf NAME]...

FILE is `q7pred prove --write-table FILE`. A proof is about the program the
translator describes; this catches a translator that describes another
one (an instruction modelled wrongly in a way the per-instruction test
missed, a wrong path merge, a call or PLT slot followed to the wrong
place). --native calls another library than the one translated: against
a mutant the check must disagree, so it is shown able to fail. Exit 0
when every case agrees, 1 on a disagreement (the first of each leaf
printed with its inputs), 77 when z3 or capstone is missing.
"""
import argparse
import ctypes
import json
import os
import random
import sys
import time

from q7prove import requires

z3, _ = requires.modules('python3-z3, python3-capstone', 'z3', 'capstone')
from q7prove.smt import bitvec as bv
from q7prove.smt.solver import Undecided
from q7prove.elf import image as elf_image
from q7prove.binary import leaf as leaf_proof
from q7prove.machine.memory import Refusal
from q7prove.x86.decode import Decoder

# Patterns where the leaves change answer: lane edges, signs, fp16 and fp32
# zeros, denormals, infinities, quiet and signalling NaNs.
PATTERNS = [0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0x3ff, 0x400, 0x3c00, 0x7bff, 0x7c00, 0x7c01, 0x7dff,
            0x7e00, 0x7fff, 0x8000, 0x8001, 0xfc00, 0xfe00, 0xffff, 0x10000, 0x7fffff, 0x800000, 0x3f800000,
            0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fbfffff, 0x7fc00000, 0x7fffffff, 0x80000000, 0x80000001,
            0xff800000, 0xffc00000, 0xffffffff]


def pattern(rng, bits, edge):
    if bits == 32:
        return rng.choice(PATTERNS) if edge else rng.getrandbits(32)
    if edge:
        return rng.choice([0, bv.mask(bits), int('01' * (bits // 2), 2), rng.choice(PATTERNS) << (bits - 32)])
    return rng.getrandbits(bits)


def native_call(lib, row, ops, values, rng):
    """Calls the leaf with its inputs, its outputs' prior words random: {object: value}."""
    args, outs = [None], {}
    for op in ops:
        for name, words, _ in leaf_proof.objects_of(op):
            if op['dir'] == 'in' and op['width'] in leaf_proof.REGISTER_WIDTHS:
                args.append(ctypes.c_uint32(values[name]))
            elif op['dir'] == 'in':
                v = values[name]
                args.append((ctypes.c_uint32 * words)(*[(v >> (32 * k)) & 0xffffffff for k in range(words)]))
            else:
                arr = (ctypes.c_uint32 * words)(*[rng.getrandbits(32) for _ in range(words)])
                outs[name] = arr
                args.append(arr)
    getattr(lib, row['symbol'])(*args)
    return {n: sum(w << (32 * k) for k, w in enumerate(a)) for n, a in outs.items()}


def check_leaf(image, decoder, lib, row, shapes, rng, cases):
    """(cases run, first disagreement or None); raises Refusal if the leaf does not translate."""
    run = leaf_proof.LeafRun(image, decoder, row, shapes, row['shape'], None, time.monotonic() + 60).run()
    finals = [s for s, how in run.finals if how == 'return']
    outputs = [(obj.name, [run.final_word(s, obj)[0] for s in finals]) for obj, _, _, _, _ in run.out_objects]
    paths = [bv.boolean(s.path()) for s in finals]
    wide = max(x.size() for v in run.inputs.values() for x in (v if isinstance(v, list) else [v])) > 64
    # the objects at one placement the proof allows (a path may depend on
    # it: a stack realigned past 16 bytes splits on the stack's place)
    places = z3.Solver()
    places.add(*run.assumptions)
    if places.check() != z3.sat:
        raise Refusal('no placement of the objects satisfies the proof\'s assumptions')
    model = places.model()
    bases = [(o.base, model.eval(o.base, model_completion=True)) for o in run.mem.objects.values()]
    n = max(4, cases // 4) if wide else cases
    for c in range(n):
        values, sub = {}, [(h, z3.BitVecVal(0, 32)) for h in run.garbage_high] + bases
        for name, v in run.inputs.items():
            for x in (v if isinstance(v, list) else [v]):
                values[str(x)] = pattern(rng, x.size(), c % 2 == 0)
                sub.append((x, z3.BitVecVal(values[str(x)], x.size())))
        native = native_call(lib, row, run.ops, values, rng)
        taken = [k for k, p in enumerate(paths) if z3.is_true(z3.simplify(z3.substitute(p, *sub)))]
        if len(taken) != 1:
            return c + 1, ('paths', '%d of its %d return paths hold' % (len(taken), len(paths)), None, values)
        for name, terms in outputs:
            t = z3.simplify(z3.substitute(terms[taken[0]], *sub))
            got = t.as_long() if z3.is_bv_value(t) else None
            if got != native[name]:
                return c + 1, (name, got, native[name], values)
    return n, None


def main():
    ap = argparse.ArgumentParser(prog='binary/check_translator.py')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--table', required=True)
    ap.add_argument('--native')
    ap.add_argument('--cases', type=int, default=32)
    ap.add_argument('--seed', type=int, default=5)
    ap.add_argument('--leaf', action='append', default=[])
    a = ap.parse_args()
    with open(a.table) as f:
        table = json.load(f)
    try:
        image = elf_image.Image(a.lib)
        lib = ctypes.CDLL(os.path.abspath(a.native or a.lib), mode=os.RTLD_NOW | ctypes.RTLD_GLOBAL)
    except (elf_image.ElfError, OSError) as e:
        print('check-binary-translator: --lib %s: %s' % (a.lib, e), file=sys.stderr)
        return 2
    decoder = Decoder(image)
    rng = random.Random(a.seed)
    leaves = total = bad = 0
    refused = []
    for row in table['leaves']:
        if a.leaf and row['leaf'] not in a.leaf or row['symbol'] not in image.by_name:
            continue
        leaves += 1
        try:
            n, diff = check_leaf(image, decoder, lib, row, table['shapes'], rng, a.cases)
        except (Refusal, Undecided) as e:
            refused.append('%s: %s' % (row['leaf'], e))
            continue
        total += n
        if diff:
            bad += 1
            where, got, want, values = diff
            shown = ' '.join('%s=%#x' % kv for kv in values.items())
            print('check-binary-translator: %s: %s: translated %s, native %s (%s)'
                  % (row['leaf'], where, hex(got) if isinstance(got, int) else got,
                     hex(want) if isinstance(want, int) else want, shown))
    for r in refused:
        print('check-binary-translator: not translated: %s' % r)
    print('check-binary-translator: %s: %d leaves, %d cases, %d disagreements, %d not translated'
          % (a.lib, leaves, total, bad, len(refused)))
    return 1 if bad or refused or not leaves else 0


if __name__ == '__main__':
    sys.exit(main())
