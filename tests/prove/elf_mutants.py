# SPDX-License-Identifier: BSD-3-Clause
"""Byte-mutated copies of a small library through the prover's reading of
a library, as `q7pred prove` runs it (tests/test_prove_elf_mutants.sh):

  elf_mutants.py LIB TABLE Q7PRED OUTDIR [--count N] [--seed S] [--loaded K] [--proven P]
                  [--keep M]

Each mutant changes 1 to 4 bytes (most in the headers and the dynamic
tables, where a reader has most to trust), or is cut short. Every one must
end in a one-line refusal (ElfError, LoadError) or a verdict for its leaf,
never in an exception of another kind and never in "the prover failed"
(the catch-all of a prover mistake). Every one the reader accepts has its
leaf's binding judged; the first K are also loaded (the loaded-image
child, twice), and the first P proven (from the loaded image, else from the
file alone). The first M/2 refused and the first M/2 read are kept as
OUTDIR/kept-<i>.so (for the command line's own test of them). Writes OUTDIR/mutant-<k>.so for the
failures, prints one line per failure and a summary; exit 1 on a failure.
"""
import argparse
import io
import json
import os
import random
import sys
import traceback


def mutate(data, rng):
    d = bytearray(data)
    if rng.random() < 0.05:
        return bytes(d[:rng.randrange(16, len(d))])
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.7:
            at = rng.randrange(0, min(len(d), 0x1000))        # headers, .dynsym, .dynstr, hashes, .rela.*
        else:
            at = rng.randrange(0, len(d))
        choice = rng.random()
        if choice < 0.4:
            d[at] ^= 1 << rng.randrange(8)
        elif choice < 0.7:
            d[at] = rng.choice((0, 0xff, 0x7f, 0x80, 1, 2))
        else:
            d[at] = rng.randrange(256)
    return bytes(d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('lib')
    ap.add_argument('table')
    ap.add_argument('q7pred')
    ap.add_argument('outdir')
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--seed', type=int, default=38)
    ap.add_argument('--loaded', type=int, default=24)
    ap.add_argument('--proven', type=int, default=40)
    ap.add_argument('--keep', type=int, default=0)
    a = ap.parse_args()
    from q7prove.binary import prove
    from q7prove.elf import image as elf_image, loaded as elf_loaded
    from q7prove.x86.decode import Decoder
    from q7prove.x86.agree import Agreement
    agreement = Agreement()
    with open(a.table) as f:
        table = json.load(f)
    rows = [r for r in table['leaves'] if r['leaf'] == 'eq_1_8_8']
    with open(a.lib, 'rb') as f:
        base = f.read()
    rng = random.Random(a.seed)
    counts = {'refused': 0, 'verdict': 0, 'loaded': 0, 'proven': 0}
    kept = {'refused': 0, 'read': 0, 'all': 0}

    def keep(data, kept, how):
        with open(os.path.join(a.outdir, 'kept-%d.so' % kept['all']), 'wb') as f:
            f.write(data)
        kept[how] += 1
        kept['all'] += 1

    failures = 0
    path = os.path.join(a.outdir, 'mutant.so')
    for k in range(a.count):
        data = mutate(base, rng)
        with open(path, 'wb') as f:
            f.write(data)
        stage = 'reading'
        try:
            img = elf_image.Image(path, 'mutant-%d.so' % k)
            if counts['loaded'] < a.loaded:
                stage = 'loading'
                elf_loaded.LoadedImage(img, [a.q7pred], path, [r['symbol'] for r in rows], timeout=10)
                counts['loaded'] += 1
            stage = 'binding the leaf'
            prove.leaf_binding(img, rows[0]['symbol'])
            if counts['proven'] < a.proven:
                stage = 'proving'
                counts['proven'] += 1
                err = io.StringIO()
                old, sys.stderr = sys.stderr, err
                try:
                    res = prove.prove_one(img, Decoder(img), rows[0], table['shapes'], 2.0, agreement).final()
                finally:
                    sys.stderr = old
                if res.get('reason', '').startswith('the prover failed'):
                    raise AssertionError('%s\n%s' % (res['reason'], err.getvalue()))
            counts['verdict'] += 1
            if kept['read'] < a.keep // 2:
                keep(data, kept, 'read')
        except (elf_image.ElfError, elf_loaded.LoadError) as e:
            if kept['refused'] < a.keep - a.keep // 2:
                keep(data, kept, 'refused')
            if '\n' in str(e) or not str(e):
                failures += 1
                print('FAIL: mutant %d: a refusal of more or less than one line: %r' % (k, str(e)))
            counts['refused'] += 1
        except Exception:
            failures += 1
            keep = os.path.join(a.outdir, 'mutant-%d.so' % k)
            with open(keep, 'wb') as f:
                f.write(data)
            print('FAIL: mutant %d (kept as %s), while %s:\n%s' % (k, keep, stage, traceback.format_exc()))
    agreement.close()
    print('mutants: %d: %d refused in one line, %d read (%d of them loaded, %d proven), %d failures'
          % (a.count, counts['refused'], counts['verdict'], counts['loaded'], counts['proven'], failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
