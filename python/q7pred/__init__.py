# SPDX-License-Identifier: BSD-3-Clause
"""q7pred: the Vision-Q7 GPSIMD predicate/vbool, classify and compare
datapath, bit-exact, over numpy arrays.

One ufunc per leaf of the leaf table, named by the leaf's suffix::

    >>> import numpy as np, q7pred
    >>> a = np.array([-2.0, 1.0, np.nan], dtype=np.float16)
    >>> q7pred.olt_1_2_16f_16f(a, np.float16(1.0))      # the 2-bit field: 0x3 or 0
    array([3, 0, 0], dtype=uint32)
    >>> hex(q7pred.clsfy_16f_16f(np.uint16(0x7c01)))    # sNaN
    '0x60'

An operand is a bit pattern, never converted: an integer array is
zero-extended into the 32-bit argument register, a float16/float32 array is
its bits and is taken only by an operand of that width. A value wider than
its operand raises ValueError, a dtype not taken TypeError.

q7pred.vec has the vector level over 512-bit registers, q7pred.run runs a
`q7pred exec` program, q7pred.leaves() returns the leaf table.
q7pred.load(path) gives the same over another library with the
module__xdref_* ABI (the vendor's build): in this process by default, or
in a crash-isolated child with isolated=True (q7pred.library).
"""
# Imported under private names, so that dir(q7pred) shows the package's own.
from typing import List as _List, NamedTuple as _NamedTuple, Tuple as _Tuple, Union as _Union

import numpy as _np

from . import _core
from ._core import LibraryError, ProgramError

__version__ = _core.version


class Operand(_NamedTuple):
    """One operand of a leaf's shape, as the shape table declares it."""
    name: str       # "A", "result", "aux", "m" (a MASK8: m0..m7)
    role: str       # what it is, "" when the name says it
    dir: str        # "in", "out" (the result) or "aux" (reserved, written 0)
    width: str      # OPERAND FIELD INDEX BIT WORD MASK MASK8 VEC
    bits: int       # its width for this leaf (64 for each MASK8 register, 512 for a VEC)
    words: int      # its words in the generic layout
    word: int       # its first word there


class Leaf(_NamedTuple):
    """One row of the leaf table; q7pred.<suffix> is its ufunc."""
    suffix: str
    symbol: str
    shape: str
    field_bits: int
    operand_bits: int
    family: str
    family_description: str
    provenance: str
    semantics: str
    arguments: str  # the C arguments after xstate
    operands: _Tuple[Operand, ...]


def leaves() -> _List[Leaf]:
    """The leaf table, one Leaf per exported module__xdref_* leaf, in table order."""
    return [Leaf(*row[:-1], tuple(Operand(*o) for o in row[-1])) for row in _core.leaf_table()]


globals().update({row[0]: getattr(_core, row[0]) for row in _core.leaf_table()})

from . import vec  # noqa: E402  (after the leaf ufuncs: vec refers to nothing of them)


class State:
    """The machine after a program: v (32, 64) uint8 (byte i of vN at
    v[N, i]; lane k of a w-byte format is bytes [k*w, k*w + w),
    little-endian), vb (16,) and fs (8,) uint64, the names of the registers
    the program wrote, and what its print statements printed."""
    v: _np.ndarray
    vb: _np.ndarray
    fs: _np.ndarray
    written: _Tuple[str, ...]
    output: str

    def __init__(self, v, vb, fs, written, output):
        self.v, self.vb, self.fs = v, vb, fs
        self.written = tuple(written)
        self.output = output

    def __getitem__(self, name: str):
        """'v3' -> its 64 bytes; 'vb2', 'fs7' -> its uint64."""
        for prefix, regs in (("vb", self.vb), ("fs", self.fs), ("v", self.v)):
            if name.startswith(prefix) and name[len(prefix):].isdigit():
                i = int(name[len(prefix):])
                if i < len(regs):
                    return regs[i]
        raise KeyError(name)

    def lanes(self, name: str, fmt: str) -> _np.ndarray:
        """The lanes of vector register `name` in lane format `fmt`."""
        return vec.from_bytes(self[name], fmt)

    def __repr__(self) -> str:
        return "State(written=%s)" % (", ".join(self.written) or "none")


def run(text: _Union[str, bytes]) -> State:
    """Runs a `q7pred exec` program (docs/program-format.md) on a fresh
    machine and returns its final State. A program that does not parse
    raises ProgramError (line, col, message: what `q7pred exec` prints
    after FILE:LINE:COL:); nothing of it runs."""
    if isinstance(text, str):
        text = text.encode("utf-8")
    return State(*_core._run(bytes(text)))


from .library import Library, load  # noqa: E402  (after State: Library.run makes States)

__all__ = ["Leaf", "Library", "LibraryError", "Operand", "ProgramError", "State", "leaves", "load", "run", "vec"] + [
    row[0] for row in _core.leaf_table()]
