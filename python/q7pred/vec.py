# SPDX-License-Identifier: BSD-3-Clause
"""q7pred.vec: the 512-bit vector level over arrays, one generalized ufunc
per instruction of the vector table (q7pred_vecops.def).

A register is the last axis of an array in the instruction's lane format:
(..., 64) 8-bit lanes for 2nx8, (..., 32) for nx16 and nxf16, (..., 16) for
n_2x32 and n_2xf32. A vbool is a uint64 (lane k's field at bits k*w..,
w = the lane's bytes), the FS bank (..., 8) uint64::

    >>> a = np.full(32, 1.0, np.float16); b = np.full(32, 2.0, np.float16)
    >>> hex(q7pred.vec.oltnxf16(a, b))
    '0xffffffffffffffff'

The _t forms take (old, a, b, pred); classify returns lanes; fsNltu takes
and returns the bank. unpack_fields / pack_fields split a vbool into its
lanes' fields and back, from_bytes / to_bytes a register's bytes into its
lanes and back.
"""
# Imported under private names, so that dir(q7pred.vec) shows its own.
from typing import List as _List, NamedTuple as _NamedTuple

import numpy as _np

from . import _core

globals().update(_core.vec_ufuncs)


class LaneFormat(_NamedTuple):
    name: str       # "2nx8", "nx16", "n_2x32", "nxf16", "n_2xf32"
    lanes: int      # 64, 32, 16, 32, 16
    bytes: int      # per lane, = the bits of its vbool field
    fp: bool


class Instruction(_NamedTuple):
    """One row of the vector table; q7pred.vec.<mnemonic> is its ufunc."""
    mnemonic: str
    kind: str           # CMP CMP_T CLSFY LOGIC2 LOGIC1 EXTBI INJBI FSLTU RED8 MOVFSV MOVVFS
    lane_format: str
    leaf: str           # the leaf every lane goes through
    fs_index: int       # FSLTU: the FS register it writes
    inputs: tuple       # the ufunc's input names, as the C function's parameters
    output: str


FORMATS = {f.name: f for f in (LaneFormat(*row) for row in _core.lane_formats())}


def instructions() -> _List[Instruction]:
    """The vector table, in table order."""
    return [Instruction(*row) for row in _core.vec_table()]


def _format(fmt: str, who: str) -> LaneFormat:
    try:
        return FORMATS[fmt.lower()]
    except (KeyError, AttributeError):
        raise ValueError("q7pred.vec.%s: lane format %r is none of %s" % (who, fmt, ", ".join(FORMATS))) from None


def _integers(x, who: str, what: str) -> _np.ndarray:
    x = _np.asarray(x)
    if x.dtype != _np.bool_ and x.dtype.kind not in "iu":
        raise TypeError("q7pred.vec.%s: %s: dtype %s is not taken (pass integers)" % (who, what, x.dtype))
    return x


def unpack_fields(vb, fmt: str) -> _np.ndarray:
    """The fields of vbool(s) vb, one per lane of `fmt`: shape (..., lanes),
    uint8, field k = bits [k*w, k*w + w) of vb."""
    f = _format(fmt, "unpack_fields")
    v = _integers(vb, "unpack_fields", "vb").astype(_np.uint64)   # a signed vbool by its bits
    shifts = _np.arange(f.lanes, dtype=_np.uint64) * _np.uint64(f.bytes)
    return ((v[..., None] >> shifts) & _np.uint64((1 << f.bytes) - 1)).astype(_np.uint8)


def pack_fields(fields, fmt: str) -> _np.ndarray:
    """The vbool(s) whose lanes' fields are `fields` (shape (..., lanes)), as
    uint64; a field wider than its w bits raises ValueError."""
    f = _format(fmt, "pack_fields")
    x = _integers(fields, "pack_fields", "fields")
    if x.shape[-1:] != (f.lanes,):
        raise ValueError("q7pred.vec.pack_fields: %s has %d lanes, fields has shape %s" % (f.name, f.lanes, x.shape))
    wide = (x < 0) | (x >= (1 << f.bytes))
    if wide.any():
        k = _np.argwhere(wide)[0]
        raise ValueError("q7pred.vec.pack_fields: the field of lane %d is %d, wider than its %d bits"
                         % (k[-1], x[tuple(k)], f.bytes))
    shifts = _np.arange(f.lanes, dtype=_np.uint64) * _np.uint64(f.bytes)
    return _np.bitwise_or.reduce(x.astype(_np.uint64) << shifts, axis=-1)


def from_bytes(register, fmt: str) -> _np.ndarray:
    """The lanes of 512-bit register(s) given as their 64 bytes (..., 64):
    shape (..., lanes), unsigned of the lane's width (little-endian lanes)."""
    f = _format(fmt, "from_bytes")
    b = _np.ascontiguousarray(_integers(register, "from_bytes", "register"), dtype=_np.uint8)
    if b.shape[-1:] != (64,):
        raise ValueError("q7pred.vec.from_bytes: a register is 64 bytes, the array has shape %s" % (b.shape,))
    return b.view("<u%d" % f.bytes).astype("u%d" % f.bytes)


def to_bytes(lanes, fmt: str) -> _np.ndarray:
    """The 64 bytes (..., 64) uint8 of register(s) given as their lanes
    (..., lanes); a lane wider than the format's raises ValueError."""
    f = _format(fmt, "to_bytes")
    x = _np.asarray(lanes)
    if x.dtype.kind == "f" and x.dtype.itemsize == f.bytes:
        x = x.view("u%d" % f.bytes)      # float16/float32 lanes by their bits
    x = _integers(x, "to_bytes", "lanes")
    if x.shape[-1:] != (f.lanes,):
        raise ValueError("q7pred.vec.to_bytes: %s has %d lanes, the array has shape %s" % (f.name, f.lanes, x.shape))
    if ((x < 0) | (x >= (1 << (8 * f.bytes)))).any():
        raise ValueError("q7pred.vec.to_bytes: a lane is wider than %s's %d bits" % (f.name, 8 * f.bytes))
    return _np.ascontiguousarray(x.astype("<u%d" % f.bytes)).view(_np.uint8)


__all__ = ["FORMATS", "Instruction", "LaneFormat", "from_bytes", "instructions", "pack_fields", "to_bytes",
           "unpack_fields"] + sorted(_core.vec_ufuncs)
