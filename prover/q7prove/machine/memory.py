# SPDX-License-Identifier: BSD-3-Clause
"""The memory a leaf runs in, as objects of bytes.

Every pointer argument is an object of its own at a base of its own (the
proof assumes non-overlapping arguments, as the ABI's callers pass them):
  in      an input: its bytes are the input's, read-only
  out     an output: nothing in it until the leaf writes it
  xstate  the ignored first argument: NULL, as callers pass it (its base
          is 0), and no byte at all, so a test of it sees NULL and a
          read or write through it is a violation
  stack   offsets from the entry %rsp: below it the leaf's own frame
          (writable; a byte reads only once written), at 0 the return
          address and above it the stack-passed arguments (readable, never
          writable), nothing past them
  image   the library's loaded file at its link-time addresses: code and
          read-only data readable (bytes from the file; a relocated word as
          the loader leaves it only where nothing else can write it: in
          read-only or RELRO memory, or a .got/.got.plt slot resolved to a
          symbol), nothing writable
  caller  the caller's code, where the entry return address points

A pointer is (object, offset); as a number it is the object's base plus
the offset (bases are z3 variables, aligned as the ABI's types are,
disjoint, in the canonical lower half). A byte is kept as (value, width,
byte index, written): a read of bytes that one write put there gives that
write's value back whole, so a term read back is the term stored.
Access rules are the proof's obligations (Violation: the access is on a
path for some input) or refusals (Refusal: the prover cannot say).
"""
import z3

from q7prove.smt import bitvec as bv

TABLE_SPAN = 1024     # a computed read of the library within this many bytes is a choice among them
INDEX_BITS = 8        # ... at an offset that is a function of one variable this short: a choice by its value
FRAME_LIMIT = 1 << 20   # a frame deeper than this is refused (a runaway recursion or a symbolic alloca)
CANON_TOP = 1 << 47


class Refusal(Exception):
    """Something the prover does not model: the leaf is unproven with this reason."""


class Obj:
    def __init__(self, name, kind, size, align):
        self.name, self.kind, self.size, self.align = name, kind, size, align
        self.base = z3.BitVec('base_' + name, 64)

    def describe(self, off):
        if self.kind == 'stack':
            return 'the stack at entry %%rsp%+d' % off if type(off) is int else 'the stack'
        if self.kind == 'image':
            return 'the library at %s' % self.image.where(off) if type(off) is int else 'the library'
        return '%s byte %s' % (self.name, off) if type(off) is int else self.name


class Ptr:
    """A 64-bit value that points into obj at off (an int, or a 64-bit term)."""
    __slots__ = ('obj', 'off')

    def __init__(self, obj, off):
        self.obj, self.off = obj, off

    def as_term(self):
        return self.obj.base + bv.term(self.off & bv.mask(64) if type(self.off) is int else self.off, 64)

    def moved(self, delta):
        """The pointer delta (an int or a 64-bit term) bytes on."""
        if type(self.off) is int and type(delta) is int:
            return Ptr(self.obj, self.off + bv.signed(delta & bv.mask(64), 64))
        return Ptr(self.obj, bv.add(bv.term(self.off & bv.mask(64), 64) if type(self.off) is int else self.off,
                                    delta, 64))

    def same_as(self, other):
        return isinstance(other, Ptr) and self.obj is other.obj and bv.same(self.off, other.off)

    def __repr__(self):
        return 'Ptr(%s%+d)' % (self.obj.name, self.off) if type(self.off) is int else 'Ptr(%s+?)' % self.obj.name


class Memory:
    """The bytes of every object but the image (read from the file), per
    path; copy() before a path forks."""

    def __init__(self, image):
        self.image = image
        self.objects = {}
        self.bytes = {}       # (object name, offset) -> (value, width, byte index, written)
        self.strays = []      # (condition, object, offset, n, value): writes outside their object, for the replay
        self.stack_args = 0   # bytes of stack-passed arguments above the return address

    def copy(self):
        m = Memory.__new__(Memory)
        m.image, m.objects, m.stack_args = self.image, self.objects, self.stack_args
        m.bytes = dict(self.bytes)
        m.strays = list(self.strays)
        return m

    # ---- objects
    def new(self, name, kind, size, align, value=None):
        o = Obj(name, kind, size, align)
        if kind == 'image':
            o.image = self.image
        self.objects[name] = o
        if value is not None:
            self.put(o, 0, value, 8 * size)
        return o

    def put(self, obj, off, value, width):
        """width bits of value at obj+off, little-endian, written."""
        for i in range(width // 8):
            self.bytes[(obj.name, off + i)] = (value, width, i, True)

    def assumptions(self):
        """What the proof assumes of the objects' places: xstate NULL, the
        others aligned, disjoint, in the canonical lower half (no object
        wraps around)."""
        spans, out = [], []
        for o in self.objects.values():
            if o.kind == 'xstate':   # NULL, as every caller passes it: no byte, at address 0
                out.append(o.base == 0)
                continue
            if o.kind == 'stack':
                lo, hi = -FRAME_LIMIT, 8 + self.stack_args
            elif o.kind == 'image':
                lo, hi = 0, max(s[0] + s[1] for s in self.image.loads)
            else:
                lo, hi = 0, max(o.size, 1)
            spans.append((o, lo, hi))
        for o, lo, hi in spans:
            b = o.base
            out += [z3.UGE(b + lo, 1 << 16), z3.ULE(b + hi, CANON_TOP), z3.ULT(b + lo, b + hi)]
            if o.kind == 'stack':   # the call pushed the return address onto a 16-aligned stack
                out.append(z3.Extract(3, 0, b) == 8)
            elif o.align > 1:
                out.append(z3.Extract(o.align.bit_length() - 2, 0, b) == 0)
        for i, (o, lo, hi) in enumerate(spans):
            for p, plo, phi in spans[i + 1:]:
                out.append(z3.Or(z3.ULE(o.base + hi, p.base + plo), z3.ULE(p.base + phi, o.base + lo)))
        return out

    # ---- reads
    def read(self, m, ptr, n):
        """n bytes at ptr as one value of 8n bits (a Ptr when they are one
        stored pointer); m is the instruction's context for obligations."""
        obj = ptr.obj
        if type(ptr.off) is not int:
            return self._read_symbolic(m, ptr, n)
        off = ptr.off
        if obj.kind == 'image':
            return self._read_image(m, off, n)
        if not self._readable(m, obj, off, n):
            return bv.term(0, 8 * n) if n else 0
        entries = [self.bytes.get((obj.name, off + i)) for i in range(n)]
        missing = [i for i, e in enumerate(entries) if e is None]
        if missing:
            m.violation('reads %s, which nothing wrote' % obj.describe(off + missing[0]))
            return z3.FreshConst(z3.BitVecSort(8 * n), 'unwritten')
        written = bv.band(*[e[3] for e in entries])
        if written is not True:
            m.require('reads %s only once written' % obj.describe(off), written)
        return self._join(entries, n)

    def reach(self, m, ptr, n):
        """The obligations of an access of n bytes at ptr that reads no
        value: the bytes must be ones a read may touch (its object's, the
        frame's), written or not (an element a mask leaves out that a
        processor may still fault on)."""
        obj, off = ptr.obj, ptr.off
        if type(off) is int:
            if obj.kind == 'image':
                self._read_image(m, off, n)
            else:
                self._readable(m, obj, off, n)
        elif obj.kind in ('in', 'out'):
            m.require('reaches %s at a computed offset within its %d bytes' % (obj.name, obj.size),
                      z3.ULE(off, obj.size - n) if obj.size >= n else False)
        else:
            m.violation('reaches %s at a computed offset' % obj.kind)

    @staticmethod
    def _join(entries, n):
        first = entries[0]
        src, width, idx = first[0], first[1], first[2]
        if all(e[0] is src and e[2] == idx + i for i, e in enumerate(entries)):
            if isinstance(src, Ptr):
                return src if idx == 0 and n == 8 else bv.extract(src, 8 * (idx + n) - 1, 8 * idx, 64)
            return bv.extract(src, 8 * (idx + n) - 1, 8 * idx, width)
        parts = [(bv.extract(e[0], 8 * e[2] + 7, 8 * e[2], e[1]), 8) for e in reversed(entries)]
        return bv.concat(parts)

    def _readable(self, m, obj, off, n):
        if obj.kind == 'stack':
            _within_red_zone(m, off, 'reads')
            if off + n > 8 + self.stack_args:
                m.violation('reads the caller\'s frame at entry %%rsp%+d, above its own arguments' % off)
                return False
            if off < -FRAME_LIMIT:
                raise Refusal('its frame grows past %d bytes' % FRAME_LIMIT)
            return True
        if obj.kind in ('xstate', 'caller'):
            m.violation('reads through %s' % ('xstate (callers pass NULL)' if obj.kind == 'xstate' else
                                              'its return address'))
            return False
        if off < 0 or off + n > obj.size:
            m.violation('reads %s bytes %d..%d, outside its %d bytes' % (obj.name, off, off + n - 1, obj.size))
            return False
        return True

    def _read_image(self, m, vaddr, n):
        img = self.image
        why = img.unstable(vaddr, n)
        if why:     # bytes the loaded library may hold otherwise than the proof can say
            m.refuse('reads %s: %s' % (img.where(vaddr), why))
        relocs = img.relocated(vaddr, n)
        if relocs and img.trusted_slot(vaddr, n):
            # a word the loader relocates and nothing else writes (a GOT or
            # PLT slot, a pointer in RELRO data): what it holds once loaded
            where, r = relocs[0]
            if len(relocs) > 1 or where != vaddr or n != 8:
                raise Refusal('reads part of a relocated word at %s' % img.where(vaddr))
            return self.reloc_value(r)
        if not img.readable(vaddr, n):
            sec = img.section_of(vaddr)
            m.violation('reads %s, %s' % (img.where(vaddr), 'not read-only data of the library' if sec else
                                          'outside the library\'s loaded segments'))
            return z3.FreshConst(z3.BitVecSort(8 * n), 'outside')
        return int.from_bytes(img.bytes_at(vaddr, n), 'little')

    def reloc_value(self, r):
        """What the loader leaves in a relocated word: a pointer into the
        library, or an import (an External)."""
        if r.value is not None:     # an absolute symbol, or an undefined weak one: a number
            return r.value
        if r.target is not None:
            return Ptr(self.objects['image'], r.target + r.addend)
        return External(r.sym or '?', r.kind)

    def _read_symbolic(self, m, ptr, n):
        obj, off = ptr.obj, ptr.off
        if obj.kind == 'image':
            return self._read_image_symbolic(m, off, n)
        if obj.kind == 'stack':
            cands = sorted({k for (name, k) in self.bytes if name == obj.name})
            cands = [k for k in cands if all((obj.name, k + i) in self.bytes for i in range(n))]
            if not cands:
                m.violation('reads the stack at a computed offset where nothing was written')
                return z3.FreshConst(z3.BitVecSort(8 * n), 'unwritten')
        elif obj.kind in ('in', 'out'):
            m.require('reads %s at a computed offset within its %d bytes' % (obj.name, obj.size),
                      z3.ULE(off, obj.size - n) if obj.size >= n else False)
            cands = [k for k in range(0, obj.size - n + 1)
                     if all((obj.name, k + i) in self.bytes for i in range(n))]
            if len(cands) < obj.size - n + 1:
                m.require('reads %s at a computed offset only where it was written' % obj.name,
                          bv.bor(*[off == k for k in cands]))
        else:
            m.violation('reads through %s' % obj.kind)
            return z3.FreshConst(z3.BitVecSort(8 * n), 'outside')
        if obj.kind == 'stack':
            m.require('reads the stack at a computed offset only where it was written',
                      bv.bor(*[off == bv.term(k & bv.mask(64), 64) for k in cands]))
        value = None
        for k in cands:
            entries = [self.bytes[(obj.name, k + i)] for i in range(n)]
            written = bv.band(*[e[3] for e in entries])
            hit = off == bv.term(k & bv.mask(64), 64)
            if written is not True:
                m.require('reads %s at a computed offset only once written' % obj.name, z3.Implies(hit, written))
            v = bv.term(self._join(entries, n), 8 * n)
            value = v if value is None else z3.If(hit, v, value)
        return value

    def _read_image_symbolic(self, m, off, n):
        """A table of the library read at a computed offset: bounded by the
        section the offset may reach, which is an obligation. Where the
        offset's term keeps it in a short range of one read-only section
        (a switch's jump table, a small lookup table), the read is a choice
        among that range's bytes, which a solver decides at once; where it
        is a function of one variable of at most INDEX_BITS bits (a table of
        structs indexed by a small number), a choice among the variable's
        values; else the section is an array."""
        img = self.image
        lo, hi = bv.bounds(off, 64)
        x = _small_index(off) if hi - lo >= TABLE_SPAN or img.relocated(lo, hi - lo + n) else None
        if x is not None:
            return self._read_image_indexed(m, off, n, x)
        if hi - lo < TABLE_SPAN and img.readable(lo, hi - lo + n) and not img.relocated(lo, hi - lo + n):
            why = img.unstable(lo, hi - lo + n)
            if why:     # the file's bytes there are not those the loaded library holds
                m.refuse('reads %s at a computed address: %s' % (img.where(lo), why))
            m.require('reads the library at a computed address within %s..%s' % (img.where(lo), img.where(hi)),
                      z3.And(z3.UGE(off, lo), z3.ULE(off, hi)))
            value = bv.term(int.from_bytes(img.bytes_at(hi, n), 'little'), 8 * n)
            for k in range(hi - 1, lo - 1, -1):
                value = z3.If(off == k, z3.BitVecVal(int.from_bytes(img.bytes_at(k, n), 'little'), 8 * n), value)
            return value
        secs = [s for s in img.sections if s['flags'] & 2 and s['size'] >= n and img.readable(s['addr'], s['size'])]
        hits = []
        for s in secs:
            inside = z3.And(z3.UGE(off, s['addr']), z3.ULE(off, s['addr'] + s['size'] - n))
            hits.append((s, inside))
        m.require('reads the library at a computed address within one of its read-only sections',
                  bv.bor(*[h for _, h in hits]) if hits else False)
        value = None
        for s, inside in hits:
            why = img.unstable(s['addr'], s['size'])
            if why and m.exe.feasible(m.s, inside):
                m.refuse('reads %s at a computed address: %s' % (s['name'], why))
            if why:
                m.require('reads the library at a computed address only outside relocated words', z3.Not(inside))
                continue
            words = img.relocated(s['addr'], s['size'])
            if words:   # the loader changes those words alone: the rest is as the file has it
                m.require('reads the library at a computed address only outside relocated words',
                          z3.Or(z3.Not(inside), z3.And([z3.Or(z3.ULE(off + n, w), z3.UGE(off, w + 8))
                                                         for w, _ in words])))
            arr = _section_array(img, s)
            v = z3.Concat(*[z3.Select(arr, off + i) for i in reversed(range(n))]) if n > 1 else z3.Select(arr, off)
            value = v if value is None else z3.If(inside, v, value)
        return value if value is not None else z3.FreshConst(z3.BitVecSort(8 * n), 'outside')

    # ---- writes
    def _read_image_indexed(self, m, off, n, x):
        """The read at off, a function of the one variable x: for each value
        of x, the bytes at the address off then is (each an ordinary read of
        the library: an address it may not read, or a relocated word, is an
        obligation that x never takes that value)."""
        img = self.image
        values, pointers = {}, {}
        for v in range(1 << x.size()):
            a = z3.simplify(z3.substitute(off, (x, z3.BitVecVal(v, x.size()))))
            if not z3.is_bv_value(a):
                m.refuse('reads the library at a computed address the prover cannot enumerate')
            a = a.as_long()
            # as _read_image reads the address: what it refuses is refused
            # where x may be v, what it owes is owed
            why = img.unstable(a, n)
            words = img.relocated(a, n)
            if not why and words and img.trusted_slot(a, n):
                got = self.reloc_value(words[0][1])
                if len(words) == 1 and words[0][0] == a and n == 8 and isinstance(got, Ptr) and \
                        got.obj is self.objects.get('image') and type(got.off) is int:
                    pointers[v] = got.off       # a pointer into the library the loader relocated
                    continue
                why = 'a relocated word read as other than one pointer into the library'
            if why:
                if m.exe.feasible(m.s, x == v):
                    m.refuse('reads %s at a computed address: %s' % (img.where(a), why))
                m.require('reads the library at a computed address only where it may (not %s)' % img.where(a),
                          x != v)
            elif not img.readable(a, n):
                m.require('reads the library at a computed address only where it may (not %s)' % img.where(a),
                          x != v)
            else:
                values[v] = int.from_bytes(img.bytes_at(a, n), 'little')
        if values and pointers:
            m.refuse('reads a table of the library at a computed row whose words are pointers and numbers both')
        if pointers:       # a table of the library's own addresses: the pointer, at the chosen row's offset
            return Ptr(self.objects['image'], bv.choice(x, pointers, 64))
        if values:
            return bv.choice(x, values, 8 * n)
        return z3.FreshConst(z3.BitVecSort(8 * n), 'outside')

    def write(self, m, ptr, n, value, cond=True):
        """n bytes of value at ptr; where cond is a term, only where it holds
        (a masked store's element: each byte then the new or the old one)."""
        obj, off = ptr.obj, ptr.off
        if type(off) is not int:
            return self._write_symbolic(m, ptr, n, value, cond)
        if obj.kind == 'stack':
            if off + n > 0:
                m.violation('writes %s (%s)' % (obj.describe(off), 'its return address' if off < 8 else
                                                'a stack-passed argument' if off < 8 + self.stack_args
                                                else 'the caller\'s frame'))
                self.strays.append((m.path(), obj, off, n, value))
                return
            if off < -FRAME_LIMIT:
                raise Refusal('its frame grows past %d bytes' % FRAME_LIMIT)
            _within_red_zone(m, off, 'writes')
        elif obj.kind == 'in':
            m.violation('writes %s, an input' % obj.describe(off))
            self.strays.append((m.path(), obj, off, n, value))
            if off < 0 or off + n > obj.size:
                return
        elif obj.kind == 'out':
            if off < 0 or off + n > obj.size:
                m.violation('writes %s bytes %d..%d, outside its %d bytes' % (obj.name, off, off + n - 1, obj.size))
                self.strays.append((m.path(), obj, off, n, value))
                for i in range(max(0, -off), min(n, obj.size - off)):   # the bytes inside are written all the same
                    if cond is True:
                        self.bytes[(obj.name, off + i)] = (value, 8 * n, i, True)
                    else:
                        byte = bv.extract(bv.term(value, 8 * n), 8 * i + 7, 8 * i, 8 * n)
                        self._put_byte_if(obj, off + i, byte, cond)
                return
        else:
            m.violation('writes %s' % ('through xstate (callers pass NULL)' if obj.kind == 'xstate' else
                                       'its return address\'s code' if obj.kind == 'caller' else
                                       'the library\'s own memory at %s' % self.image.where(off)
                                       if type(off) is int else 'the library'))
            return
        if cond is True:
            self.put(obj, off, value, 8 * n)
            return
        v = bv.term(value, 8 * n)
        for i in range(n):
            new = bv.extract(v, 8 * i + 7, 8 * i, 8 * n)
            self._put_byte_if(obj, off + i, new, cond)

    def _put_byte_if(self, obj, off, new, cond):
        """The byte at obj+off becomes new where cond holds."""
        old = self.bytes.get((obj.name, off))
        if old is None:
            self.bytes[(obj.name, off)] = (bv.ite(cond, new, 0, 8), 8, 0, cond)
        else:
            ob = bv.extract(old[0], 8 * old[2] + 7, 8 * old[2], old[1])
            self.bytes[(obj.name, off)] = (bv.ite(cond, new, ob, 8), 8, 0, bv.bor(cond, old[3]))

    def _write_symbolic(self, m, ptr, n, value, cond=True):
        obj, off = ptr.obj, ptr.off
        if obj.kind != 'out':
            if obj.kind == 'in':
                m.violation('writes %s at a computed offset, an input' % obj.name)
                return
            raise Refusal('writes %s at a computed offset' % obj.describe(None))
        m.require('writes %s at a computed offset within its %d bytes' % (obj.name, obj.size),
                  z3.ULE(off, obj.size - n) if obj.size >= n else False)
        v = bv.term(value, 8 * n)
        for k in range(0, obj.size - n + 1):
            hit = bv.band(off == k, cond)
            for i in range(n):
                self._put_byte_if(obj, k + i, bv.extract(v, 8 * i + 7, 8 * i, 8 * n), hit)

    # ---- paths meeting
    def merge(self, other, c):
        """This memory where c holds, other's elsewhere."""
        out = self.copy()
        out.strays = self.strays + [s for s in other.strays if s not in self.strays]
        for key in set(self.bytes) | set(other.bytes):
            a, b = self.bytes.get(key), other.bytes.get(key)
            if a is not None and b is not None and a[1:] == b[1:] and bv.same(a[0], b[0]):
                continue
            va = bv.extract(a[0], 8 * a[2] + 7, 8 * a[2], a[1]) if a else None
            vb = bv.extract(b[0], 8 * b[2] + 7, 8 * b[2], b[1]) if b else None
            if va is None:
                out.bytes[key] = (vb, 8, 0, bv.band(bv.bnot(c), b[3]))
            elif vb is None:
                out.bytes[key] = (va, 8, 0, bv.band(c, a[3]))
            else:
                out.bytes[key] = (bv.ite(c, va, vb, 8), 8, 0, bv.bite(c, a[3], b[3]))
        return out


RED_ZONE = 128   # bytes below %rsp that System V keeps from signal handlers


def _within_red_zone(m, off, what):
    """A stack access more than the red zone below the current %rsp: a
    signal handler may overwrite those bytes at any moment, so what the leaf
    reads back there is not what it stored (unproven: the prover does not
    model signals)."""
    sp = m.s.reg('rsp')
    if isinstance(sp, Ptr) and type(sp.off) is int and off < sp.off - RED_ZONE:
        m.refuse('%s the stack %d bytes below %%rsp, past the %d-byte red zone (a signal handler may overwrite it)'
                 % (what, sp.off - off, RED_ZONE))


class External:
    """The address of a symbol the library imports: it may be called (the
    prover then refuses) but never read through."""
    __slots__ = ('name', 'kind')

    def __init__(self, name, kind):
        self.name, self.kind = name, kind

    def as_term(self):
        return z3.BitVec('import_' + self.name, 64)

    def same_as(self, other):
        return isinstance(other, External) and other.name == self.name


_ARRAYS = {}


def _small_index(t):
    """The one variable term t depends on, when it has one and it has at
    most INDEX_BITS bits; else None."""
    found = list(bv.variables(t).values())
    if len(found) != 1 or not z3.is_bv(found[0]) or found[0].size() > INDEX_BITS:
        return None
    return found[0]


def _section_array(img, s):
    key = (img.path, s['addr'])
    if key not in _ARRAYS:
        arr = z3.K(z3.BitVecSort(64), z3.BitVecVal(0, 8))
        for i, b in enumerate(img.bytes_at(s['addr'], s['size'])):
            if b:
                arr = z3.Store(arr, s['addr'] + i, b)
        _ARRAYS[key] = arr
    return _ARRAYS[key]
