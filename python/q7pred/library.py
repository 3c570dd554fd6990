# SPDX-License-Identifier: BSD-3-Clause
"""q7pred.load: any library with the module__xdref_* ABI (the vendor's
libfiss-base.so, a build of this one) behind the same ufuncs, vector
instructions and programs as the model, with the same operand checks::

    >>> lib = q7pred.load("build/libq7pred.so")
    >>> lib.olt_1_2_16f_16f(np.float16([-2.0, np.nan]), np.float16(1.0))
    array([3, 0], dtype=uint32)

isolated=False (the default) calls the library in this process: as fast
as a call through a function pointer, but a crash in the library ends the
interpreter (after one line on stderr naming the leaf, its input and this
option). isolated=True calls it in a child process, as `q7pred verify`
does: a crash, a hang (past timeout seconds) or an exit of the library is
a LibraryError naming the leaf and the input, the interpreter goes on and
the next call gets a fresh child; each call of a ufunc is one round trip.
"""
import hashlib as _hashlib
import json as _json
import os as _os
import sys as _sys
from typing import Optional as _Optional

from . import _core
from ._core import LibraryError

_LEAVES = [row[0] for row in _core.leaf_table()]
_SHAPE_OF = {row[0]: row[2] for row in _core.leaf_table()}
_STATUSES = ("confirmed", "refuted", "absent", "crashed")


def _sha256(path):
    h = _hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _read_abi(abi, lib_path):
    """The probe report abi (q7pred probe --json): one (shape, order) per
    leaf of the table, and the xstate it probed with; ValueError naming the
    file and the entry for anything that is not a whole probe report of
    this library made with these tables."""
    def bad(what):
        return ValueError("q7pred.load: abi=%r %s" % (abi, what))
    try:
        with open(abi, "rb") as f:
            doc = _json.loads(f.read().decode("utf-8"))
    except OSError as e:
        raise ValueError("q7pred.load: cannot read abi=%r: %s" % (abi, e.strerror)) from None
    except (UnicodeDecodeError, ValueError) as e:
        raise bad("is not JSON: %s" % e) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("library"), str) or not isinstance(doc.get("leaves"), list):
        raise bad('is not a probe report: it needs "library" and a "leaves" list')
    if doc.get("interrupted") is not None:
        raise bad("was written by a probe that was interrupted, so it is not whole; probe again")
    file = doc.get("file")
    if file is not None:
        sha = file.get("sha256") if isinstance(file, dict) else None
        if not isinstance(sha, str) or len(sha) != 64:
            raise bad('has a "file" that is not a file\'s identity with a SHA-256')
        own = _sha256(lib_path)
        if own != sha:
            raise bad("is the probe of another file: %r (SHA-256 %s), not %r (SHA-256 %s); probe it again"
                      % (file.get("path"), sha, lib_path, own))
    xstate = doc.get("xstate_size", 0)
    if not isinstance(xstate, int) or isinstance(xstate, bool) or xstate < 0:
        raise bad('has an "xstate_size" that is not a number of bytes')
    entries = {name: (-2, None) for name in _LEAVES}   # -2: the table's shape (not in the file)
    seen = set()
    for k, e in enumerate(doc["leaves"]):
        name = e.get("leaf") if isinstance(e, dict) else None
        where = "leaves[%d]%s" % (k, " (%s)" % name if isinstance(name, str) else "")
        if name not in entries:
            raise bad("%s names no leaf of the table" % where)
        if name in seen:
            raise bad("%s names its leaf a second time" % where)
        seen.add(name)
        status, table, found = e.get("status"), e.get("table_shape"), e.get("found_shape")
        if status not in _STATUSES:
            raise bad('%s has no "status" confirmed, refuted, absent or crashed' % where)
        if table != _SHAPE_OF[name]:
            raise bad('%s has a "table_shape" that is not the table\'s (probed with other tables?)' % where)
        shape = _core._shape_args(found) if isinstance(found, str) else None
        if found is not None and shape is None:
            raise bad('%s has a "found_shape" that is neither null nor a shape of the table' % where)
        if status == "confirmed" and found != table:
            raise bad('%s is confirmed with a "found_shape" other than its table shape' % where)
        if shape is None:
            entries[name] = (-2, None) if status == "absent" else (-1, None)
            continue
        order = e.get("found_order")
        if order is not None:
            args = shape[1]
            if not isinstance(order, list) or sorted(map(str, order)) != sorted(args):
                raise bad('%s has a "found_order" that is not a list of its shape\'s argument names' % where)
            order = tuple(args.index(a) for a in order)
        entries[name] = (shape[0], order)
    shape_index = {}
    out = []
    for name in _LEAVES:
        s, order = entries[name]
        if s == -2:
            if _SHAPE_OF[name] not in shape_index:
                shape_index[_SHAPE_OF[name]] = _core._shape_args(_SHAPE_OF[name])[0]
            s = shape_index[_SHAPE_OF[name]]
        out.append((s, order))
    return out, xstate


class _Vec:
    """lib.vec: the vector instructions over the library's leaves, lane by
    lane (the _t merge on its bitkill leaves); every other name of
    q7pred.vec (unpack_fields, pack_fields, from_bytes, to_bytes,
    instructions, FORMATS) is q7pred.vec's own."""

    def __init__(self, label, ufuncs):
        self._label = label
        self.__dict__.update(ufuncs)

    def __getattr__(self, name):
        from . import vec
        return getattr(vec, name)

    def __dir__(self):
        from . import vec
        return sorted(set(self.__dict__) | set(dir(vec)))

    def __repr__(self):
        return "<%s.vec>" % self._label


class Library:
    """A library loaded by q7pred.load: one ufunc per leaf it exports (and
    the probe calls), named by its suffix as q7pred's own; .vec, the vector
    instructions; .run, a q7pred exec program; .exported and .called, the
    leaves; close() (or a with block) ends it."""

    def __init__(self, path, *, abi=None, isolated=False, xstate_size=None, timeout=10.0):
        path = _os.fspath(path)
        self.path = path
        self.isolated = bool(isolated)
        self.abi = _os.fspath(abi) if abi is not None else None
        self._label = "q7pred.load(%r)" % _os.path.basename(path)
        if xstate_size is not None and (not isinstance(xstate_size, int) or isinstance(xstate_size, bool)
                                        or not 0 <= xstate_size <= (1 << 20)):
            raise ValueError("%s: xstate_size=%r is not a number of bytes in 0..%d" % (self._label, xstate_size,
                                                                                     1 << 20))
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 86400:
            raise ValueError("%s: timeout=%r is not a number of seconds in (0, 86400]" % (self._label, timeout))
        entries = None
        if abi is not None:
            if not _os.path.isfile(path):
                raise LibraryError("%s: cannot load library %r: no such file" % (self._label, path))
            entries, probed = _read_abi(self.abi, path)
            if xstate_size is None:
                xstate_size = probed
            elif xstate_size != probed:
                raise ValueError("%s: xstate_size=%d is not the xstate abi=%r was probed with (%s); probe again "
                                 "with --xstate-size %d, or leave it out to take the probe's"
                                 % (self._label, xstate_size, self.abi,
                                    "a buffer of %d bytes" % probed if probed else "NULL", xstate_size))
        self.xstate_size = xstate_size or 0
        child = []
        if self.isolated:
            if not _sys.executable:
                raise LibraryError("%s: isolated=True needs sys.executable to start its child" % self._label)
            where = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
            child = [_sys.executable, "-c", "import sys; sys.path.insert(0, %r); from q7pred import _core; "
                     "sys.exit(_core._lib_child(sys.argv))" % where]
        self._capsule = _core._load(path, self._label, self.isolated, self.xstate_size, float(timeout), entries,
                                    child)
        present = _core._lib_present(self._capsule)
        self.exported = tuple(n for n, (e, _) in zip(_LEAVES, present) if e)
        self.called = tuple(n for n, (e, c) in zip(_LEAVES, present) if e and c)
        leaves, vec = _core._lib_ufuncs(self._capsule)
        self._ufuncs = {n: f for n, f in leaves.items() if n in self.called}
        self.vec = _Vec(self._label, vec)

    def __getattr__(self, name):
        ufuncs = self.__dict__.get("_ufuncs")
        if ufuncs is not None and name in ufuncs:
            return ufuncs[name]
        if name in _SHAPE_OF and ufuncs is not None:
            if name not in self.exported:
                raise AttributeError("%s: the library does not export module__xdref_%s" % (self._label, name))
            raise AttributeError("%s: %s is not called: the probe (abi=%r) found no argument list for it"
                                 % (self._label, name, self.abi))
        if name in _SHAPE_OF:
            raise ValueError("%s is closed" % self.__dict__.get("_label", "q7pred.load()"))
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self.__dict__.get("_ufuncs") or ()))

    def run(self, text):
        """Runs a q7pred exec program on the library's leaves (as q7pred.run
        on the model's); a statement the library fails raises LibraryError
        naming its line, the statement and why."""
        from . import State
        if self.__dict__.get("_ufuncs") is None:
            raise ValueError("%s is closed" % self._label)
        if isinstance(text, str):
            text = text.encode("utf-8")
        return State(*_core._run(bytes(text), self._capsule))

    def close(self):
        """No call of the library after this; an isolated one's child ends.
        (The library stays loaded in this process: code of it may still
        be referenced.)"""
        if self.__dict__.get("_ufuncs") is None:
            return
        _core._lib_close(self._capsule)
        self._ufuncs = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<%s%s: %d of %d leaves%s>" % (self._label, ", isolated" if self.isolated else "",
                                            len(self.called), len(_LEAVES),
                                            ", closed" if self.__dict__.get("_ufuncs") is None else "")


def load(path, *, abi: _Optional[str] = None, isolated: bool = False, xstate_size: _Optional[int] = None,
         timeout: float = 10.0) -> Library:
    """Loads a library with the module__xdref_* ABI: its leaves as ufuncs,
    lib.vec its vector instructions, lib.run(text) a q7pred exec program,
    each with the operand checks of q7pred's own.

    abi          a probe report (q7pred probe --lib PATH --json FILE): each
                 leaf called in the shape and argument order it found; a
                 leaf it found none for is not offered. It must be of this
                 file (its SHA-256).
    isolated     False (the default): calls in this process; a crash of
                 the library ends the interpreter, after a line on stderr.
                 True: calls in a child process (one round trip per ufunc
                 call); a crash, a hang or an exit is a LibraryError.
    xstate_size  pass the leaves a zeroed buffer of this many bytes as
                 xstate instead of NULL (default: the probe's with abi,
                 else NULL)
    timeout      isolated: seconds for the child to start and for each call
    """
    return Library(path, abi=abi, isolated=isolated, xstate_size=xstate_size, timeout=timeout)
