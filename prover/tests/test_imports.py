# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.imports: z3, unicorn and capstone imported without
pkg_resources and distutils, and working; the stand-ins answer as the real
modules do."""
import os
import subprocess
import sys

import pytest

PROVER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(code):
    env = dict(os.environ, PYTHONPATH=PROVER)
    return subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True)


def test_the_three_import_lightly_and_work():
    for m in ('z3', 'unicorn', 'capstone'):
        pytest.importorskip(m)
    r = run('''
import sys, q7prove
import z3, unicorn, capstone
assert not {'pkg_resources', 'distutils', 'distutils.sysconfig'} & set(sys.modules), sorted(sys.modules)
x = z3.BitVec('x', 8)
s = z3.Solver(); s.add(x * 2 == 6, x < 100); assert s.check() == z3.sat and s.model()[x].as_long() == 3
mu = unicorn.Uc(unicorn.UC_ARCH_X86, unicorn.UC_MODE_64)
mu.mem_map(0x1000, 0x1000); mu.mem_write(0x1000, b'\\x48\\xff\\xc0')       # inc rax
mu.emu_start(0x1000, 0x1003); assert mu.reg_read(unicorn.x86_const.UC_X86_REG_RAX) == 1
md = capstone.Cs(capstone.CS_ARCH_X86, capstone.CS_MODE_64)
assert [i.mnemonic for i in md.disasm(b'\\x48\\xff\\xc0', 0)] == ['inc']
import pkg_resources                          # a later import: the real module
assert hasattr(pkg_resources, 'working_set') and not getattr(pkg_resources, '_q7_stand_in', False)
''')
    assert r.returncode == 0, r.stderr


def test_the_stand_ins_answer_as_the_real_modules():
    pytest.importorskip('z3')
    pytest.importorskip('pkg_resources')
    r = run('''
import pkg_resources as real
from q7prove import imports
fake = imports._stand_in('pkg_resources')
assert fake.resource_filename('z3', 'lib') == real.resource_filename('z3', 'lib'), fake.resource_filename('z3', 'lib')
assert fake.get_distribution is real.get_distribution      # any other name: from the real module
''')
    assert r.returncode == 0, r.stderr


def test_a_stand_in_of_a_submodule_loads_the_real_package():
    r = run('''
import sys, sysconfig
from q7prove import imports
sys.modules['distutils'] = imports._stand_in('distutils')
sys.modules['distutils.sysconfig'] = d = imports._stand_in('distutils.sysconfig')
assert d.get_python_version() == sysconfig.get_python_version()
assert not getattr(sys.modules['distutils'], '_q7_stand_in', False)
''')
    if 'No module named' in r.stderr and 'distutils' in r.stderr:
        pytest.skip('no distutils here')
    assert r.returncode == 0, r.stderr
