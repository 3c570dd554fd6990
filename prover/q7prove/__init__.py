# SPDX-License-Identifier: BSD-3-Clause
"""q7prove: the prover behind `q7pred prove` (docs/proofs.md).

Subpackages, bottom first; each imports only those before it:
  elf          the ELF file and the image the loader makes of it
  smt          bit-vector terms and the solvers that answer questions on them
  machine      the symbolic machine: registers, flags, memory
  x86          x86-64 decoding and one instruction's semantics (the table)
  obligations  the spec's rules and what a leaf's name requires
  binary       a library's machine code proven leaf by leaf (q7pred prove)

Entry points, run as `python3 -m NAME`:
  q7prove.binary                   the prover q7pred prove runs
  q7prove.binary.check_translator  the binary proof's predictions against native calls
  q7prove.x86.check                the instruction table against unicorn and this CPU

Nothing here imports z3, capstone or unicorn at package import: an entry
point asks for them (requires.modules) and ends as a skipped test without.
The package's import only makes z3's, unicorn's and capstone's own
imports lighter (imports.py).
"""
import os

from q7prove import imports

imports.install()

# The source checkout this package sits in (prover/q7prove/..), for the
# tools that read include/ and src/; installed, it names no such tree.
SOURCE_TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
