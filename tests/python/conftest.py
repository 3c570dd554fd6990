# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of the q7pred package tests (run by tests/test_python.sh).

The reference for every ufunc is the C library itself, build/libq7pred.so
($Q7LIB), called through ctypes: a leaf's exported ABI function through
q7_shape_call, with its operands laid out by the library's own registry
(mirrored below from include/q7pred.h), and the vector level's reference
lane loop. The package under test is imported from $PYTHONPATH.
"""
import ctypes
import os
import re
from pathlib import Path

import numpy as np
import pytest

SRCDIR = Path(os.environ.get("SRCDIR", Path(__file__).resolve().parents[2]))

# The leaves of DECISIONS.md §1 as tests/support/spec_leaves.h writes them out (not
# the leaf table under test): (group, suffix, provenance) a row.
SPEC_LEAVES = re.findall(r"^ *X\((\w+), (\w+), (\w+)\)", (SRCDIR / "tests" / "support" / "spec_leaves.h").read_text(), re.M)

# include/q7pred.h: q7_operand_dir, q7_width_class
IN, OUT, AUX = 0, 1, 2
OPERAND, FIELD, INDEX, BIT, WORD, MASK, MASK8, VEC = range(8)


class OperandInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("role", ctypes.c_char_p), ("dir", ctypes.c_int),
                ("width", ctypes.c_int), ("words", ctypes.c_uint), ("word", ctypes.c_uint)]


class ShapeInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("in_words", ctypes.c_uint), ("out_words", ctypes.c_uint),
                ("aux_words", ctypes.c_uint), ("arguments", ctypes.c_char_p),
                ("operands", ctypes.POINTER(OperandInfo)), ("operand_count", ctypes.c_uint),
                ("inputs", ctypes.c_uint), ("value_inputs", ctypes.c_bool)]


class LeafInfo(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint), ("suffix", ctypes.c_char_p), ("symbol", ctypes.c_char_p),
                ("shape", ctypes.c_int), ("field_bits", ctypes.c_uint), ("operand_bits", ctypes.c_uint),
                ("family", ctypes.c_int), ("provenance", ctypes.c_int), ("semantics", ctypes.c_char_p),
                ("eval", ctypes.c_void_p), ("abi", ctypes.c_void_p)]


class CLibrary:
    """build/libq7pred.so: its leaves by the registry, called one at a time."""

    def __init__(self, path):
        self.lib = lib = ctypes.CDLL(str(path))
        lib.q7_leaf_count.restype = ctypes.c_size_t
        lib.q7_leaf_at.restype = ctypes.POINTER(LeafInfo)
        lib.q7_leaf_at.argtypes = [ctypes.c_size_t]
        lib.q7_shape_info_of.restype = ctypes.POINTER(ShapeInfo)
        lib.q7_shape_info_of.argtypes = [ctypes.c_int]
        lib.q7_operand_bits.restype = ctypes.c_uint
        lib.q7_operand_bits.argtypes = [ctypes.POINTER(LeafInfo), ctypes.POINTER(OperandInfo)]
        lib.q7_shape_call.restype = None
        lib.q7_shape_call.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self.leaves = {}
        for i in range(lib.q7_leaf_count()):
            leaf = lib.q7_leaf_at(i)
            self.leaves[leaf.contents.suffix.decode()] = leaf

    def operands(self, suffix):
        """(name, dir, width class, bits, words, word) of each operand, ABI order."""
        leaf = self.leaves[suffix]
        shape = self.lib.q7_shape_info_of(leaf.contents.shape).contents
        return [(o.name.decode(), o.dir, o.width, self.lib.q7_operand_bits(leaf, ctypes.byref(o)), o.words, o.word)
                for o in shape.operands[:shape.operand_count]]

    def call(self, suffix, in_words):
        """The ABI leaf on one case in the generic word layout: out[] words."""
        leaf = self.leaves[suffix].contents
        shape = self.lib.q7_shape_info_of(leaf.shape).contents
        src = (ctypes.c_uint32 * 16)(*in_words)
        dst = (ctypes.c_uint32 * 16)(*([0xdeadbeef] * 16))
        self.lib.q7_shape_call(leaf.shape, leaf.abi, src, dst)
        return list(dst[:shape.out_words])


@pytest.fixture(scope="session")
def clib():
    path = Path(os.environ.get("Q7LIB", SRCDIR / "build" / "libq7pred.so"))
    if not path.exists():
        pytest.fail("%s is missing: run make first" % path)
    return CLibrary(path)


@pytest.fixture(scope="session")
def q7():
    import q7pred
    return q7pred


@pytest.fixture
def rng(request):
    """A generator seeded by the test's name: every run draws the same values."""
    return np.random.default_rng(sum(map(ord, request.node.name)))
