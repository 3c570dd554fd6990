# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.binary: one leaf of a small library proven from its machine
code, another refuted with a counterexample on which the spec (DECISIONS.md
section 2: unsigned compares act on all 32 bits) and the code differ.
Needs the CLI's tables: $Q7PRED prove --write-table (skipped without it)."""
import json
import os
import subprocess

import pytest

pytest.importorskip('z3')
pytest.importorskip('capstone')
from q7prove.binary import prove  # noqa: E402
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
