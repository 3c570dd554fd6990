# SPDX-License-Identifier: BSD-3-Clause
"""A library's relocations as glibc's loader applies them on x86-64
(elf/dynamic-link.h, elf/do-rel.h, sysdeps/x86_64/dl-machine.h): DT_RELR
first (each listed word has the load base added), then DT_RELA (its first
DT_RELACOUNT entries as relative ones) and DT_JMPREL (when DT_PLTREL is
there; one range with DT_RELA when they touch), each range's
R_X86_64_IRELATIVE entries after its others. DT_REL is not read on
x86-64, by the loader or here.

Modelled, so a proof reads them as what they hold once loaded: RELATIVE,
RELATIVE64 and RELR (a pointer into the library), 64, GLOB_DAT and
JUMP_SLOT (the bound symbol's address: into the library, an absolute
value, or an import). Every other kind the loader applies (PC32, 32,
SIZE32/64, the TLS kinds, TLSDESC, COPY, IRELATIVE, a GLOB_DAT or JUMP_SLOT
bound to an IFUNC), a relocation of code (DT_TEXTREL), two relocations of
one byte, and a JUMP_SLOT with an addend (glibc applies it when binding
at load, not when binding lazily) leave bytes the proof does not read:
a read that reaches them is refused, naming the relocation.

Under lazy binding (no DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW) a PLT slot
holds, until the first call, the file's value plus the base: the proof
takes the slot as bound only where that value is the standard stub that
asks the loader for this very relocation (push its index, jump to PLT0,
which pushes GOT[1] and jumps through GOT[2]).
"""
import bisect

DT_PLTRELSZ, DT_RELA, DT_RELASZ, DT_RELAENT, DT_PLTREL, DT_JMPREL, DT_PLTGOT = 2, 7, 8, 9, 20, 23, 3
DT_RELRSZ, DT_RELR, DT_RELRENT, DT_RELACOUNT = 35, 36, 37, 0x6ffffff9
NAMES = {0: 'R_X86_64_NONE', 1: 'R_X86_64_64', 2: 'R_X86_64_PC32', 5: 'R_X86_64_COPY', 6: 'R_X86_64_GLOB_DAT',
         7: 'R_X86_64_JUMP_SLOT', 8: 'R_X86_64_RELATIVE', 10: 'R_X86_64_32', 16: 'R_X86_64_DTPMOD64',
         17: 'R_X86_64_DTPOFF64', 18: 'R_X86_64_TPOFF64', 32: 'R_X86_64_SIZE32', 33: 'R_X86_64_SIZE64',
         36: 'R_X86_64_TLSDESC', 37: 'R_X86_64_IRELATIVE', 38: 'R_X86_64_RELATIVE64'}
SIZES = {1: 8, 2: 4, 6: 8, 7: 8, 8: 8, 10: 4, 16: 8, 17: 8, 18: 8, 32: 4, 33: 8, 36: 16, 37: 8, 38: 8}
R_64, R_GLOB_DAT, R_JUMP_SLOT, R_RELATIVE, R_IRELATIVE, R_RELATIVE64, R_COPY, R_NONE = 1, 6, 7, 8, 37, 38, 5, 0
MAX_RELOCS = 1 << 22


def kind_name(t):
    return NAMES.get(t, 'relocation type %d' % t)


class Reloc:
    """A relocated 8-byte word as the proof reads it: kind 'relative',
    'abs', 'got' or 'plt'; sym the symbol's name (None for a relative
    one); target its offset in the library when it binds there, else None
    (an import, unless value is set: an absolute number)."""

    def __init__(self, kind, sym, target, addend, value=None):
        self.kind, self.sym, self.target, self.addend, self.value = kind, sym, target, addend, value


class Rec:
    """One relocation entry as the loader applies it."""
    __slots__ = ('where', 'type', 'sym', 'addend', 'table', 'index', 'size', 'lazy')

    def describe(self, img):
        s = ' against %s' % self.sym.describe() if self.sym is not None else ''
        return '%s%s at %s (%s entry %d)' % (kind_name(self.type), s, img.where(self.where), self.table, self.index)


class Relocations:
    def __init__(self, img):
        self.img = img
        self.resolver = None        # LoadedImage.binding once attached
        from q7prove.elf.image import ElfError
        self.ElfError = ElfError
        self.records = self._records()
        self._check_overlap()

    # ---- the tables, in the loader's order
    def _u(self, vaddr, n, what):
        b = self.img.file_bytes(vaddr, n)
        if b is None or self.img._vaddr_offset(vaddr + n - 1) is None:
            raise self.ElfError("'%s': its %s at %#x is not in the file's loaded bytes" % (self.img.name, what, vaddr))
        return int.from_bytes(b, 'little')

    def _records(self):
        dyn, name = self.img.dyn, self.img.name
        out = []
        if DT_RELR in dyn:
            if dyn.get(DT_RELRENT) != 8:
                raise self.ElfError("'%s': DT_RELRENT is not 8: the loader stops on it" % name)
            out += self._relr(dyn[DT_RELR], dyn.get(DT_RELRSZ, 0))
        ranges = []
        if DT_RELA in dyn:
            if dyn.get(DT_RELAENT) != 24:
                raise self.ElfError("'%s': DT_RELAENT is not 24: the loader stops on it" % name)
            ranges.append([dyn[DT_RELA], dyn.get(DT_RELASZ, 0), dyn.get(DT_RELACOUNT, 0), '.rela.dyn'])
        else:
            ranges.append([0, 0, 0, '.rela.dyn'])
        self.jmprel = None
        if DT_PLTREL in dyn:
            if dyn[DT_PLTREL] != DT_RELA:
                raise self.ElfError("'%s': DT_PLTREL is not DT_RELA: the loader stops on it" % name)
            start, size = dyn.get(DT_JMPREL, 0), dyn.get(DT_PLTRELSZ, 0)
            self.jmprel = (start, size)
            r0 = ranges[0]
            if r0[0] + r0[1] == start + size:
                r0[1] -= size
            if r0[0] + r0[1] == start:      # bound at load: one range, as the loader takes it
                r0[1] += size
            else:
                ranges.append([start, size, 0, '.rela.plt'])
        for start, size, nrelative, table in ranges:
            out += self._rela(start, size, nrelative, table)
        return out

    def _relr(self, start, size):
        out, base = [], None
        for k in range(size // 8):
            entry = self._u(start + 8 * k, 8, 'DT_RELR table')
            if not entry & 1:
                base = entry
                out.append(self._rec(entry, R_RELATIVE, None, 0, 'DT_RELR', k, 8))
                base += 8
            else:
                if base is None:
                    raise self.ElfError("'%s': its DT_RELR table starts with a bitmap" % self.img.name)
                for bit in range(63):
                    if entry >> (bit + 1) & 1:
                        out.append(self._rec(base + 8 * bit, R_RELATIVE, None, 0, 'DT_RELR', k, 8))
                base += 63 * 8
            if len(out) > MAX_RELOCS:
                raise self.ElfError("'%s' has more than %d relocations" % (self.img.name, MAX_RELOCS))
        for r in out:
            r.table = 'DT_RELR'
        return out

    def _rec(self, where, t, sym, addend, table, index, size):
        r = Rec()
        r.where, r.type, r.sym, r.addend, r.table, r.index, r.size, r.lazy = where, t, sym, addend, table, index, size, False
        return r

    def _rela(self, start, size, nrelative, table):
        count = size // 24
        if count > MAX_RELOCS:
            raise self.ElfError("'%s' has more than %d relocations" % (self.img.name, MAX_RELOCS))
        if nrelative > count:
            raise self.ElfError("'%s': DT_RELACOUNT (%d) exceeds its relocation table (%d entries)"
                                % (self.img.name, nrelative, count))
        normal, deferred = [], []
        for k in range(count):
            e = start + 24 * k
            where, info = self._u(e, 8, 'relocation table'), self._u(e + 8, 8, 'relocation table')
            addend = self._u(e + 16, 8, 'relocation table')
            addend -= (1 << 64) if addend >> 63 else 0
            t, symidx = info & 0xffffffff, info >> 32
            if k < nrelative:
                if t not in (R_RELATIVE, R_RELATIVE64):
                    raise self.ElfError("'%s': DT_RELACOUNT covers %s entry %d, a %s: the loader applies it as a "
                                        "relative one or stops" % (self.img.name, table, k, kind_name(t)))
                normal.append(self._rec(where, R_RELATIVE, None, addend, table, k, 8))
                continue
            if t not in SIZES and t not in (R_NONE, R_COPY):
                raise self.ElfError("'%s': %s entry %d is a %s, which the loader refuses"
                                    % (self.img.name, table, k, kind_name(t)))
            sym = None
            if symidx:
                sym = self.img.syms.entry(symidx)
            size = SIZES.get(t, 0)
            if t == R_COPY:
                size = max(1, sym.size if sym is not None else 1)
            r = self._rec(where, t, sym, addend, table, k, size)
            r.lazy = (self.jmprel is not None and self.jmprel[0] <= e < self.jmprel[0] + self.jmprel[1])
            if r.lazy:      # named, and indexed as the lazy binder indexes it, within DT_JMPREL
                r.table, r.index = '.rela.plt', (e - self.jmprel[0]) // 24
            (deferred if t == R_IRELATIVE else normal).append(r)
        return normal + deferred

    def _check_overlap(self):
        """Bytes two relocations write, and relocations of code: unmodelled."""
        self.overlaps = []        # (lo, hi, reason)
        spans = sorted(((r.where, r.where + r.size, r) for r in self.records if r.size), key=lambda t: t[:2])
        for (lo, hi, r), (lo2, hi2, r2) in zip(spans, spans[1:]):
            if lo2 < hi:
                self.overlaps.append((lo, max(hi, hi2), 'two relocations write %s: %s and %s'
                                       % (self.img.where(lo2), r.describe(self.img), r2.describe(self.img))))

    # ---- what each relocated word holds
    def binding(self, r):
        """How r's symbol binds: ('own', Symbol), ('abs', value), ('import',
        name), ('ifunc', Symbol), ('zero', None) for an undefined weak
        symbol nothing defines. Once attached, the loaded image answers."""
        if self.resolver is not None:
            return self.resolver(r)
        s = r.sym
        if s.bind == 0 or s.other & 3 in (1, 2):       # local, hidden or internal: this object's own
            found = s
        else:
            version = None
            if s.version is not None and self.img.syms.versions is not None:
                v = self.img.syms.versions['names'].get(s.versioned)
                version = (v[0], v[1], bool(s.hidden)) if v else None
            found = self.img.syms.lookup(s.name, version, newest=False, type_class=1 if r.type == R_JUMP_SLOT else 0)
        if found is None or not found.defined:
            return ('zero', None) if s.bind == 2 else ('import', s.name)
        return own_binding(found)

    def modeled_words(self):
        """vaddr -> Reloc for every word the proof reads as what it holds once
        loaded; every other relocated byte goes to self.unmodeled."""
        img = self.img
        words = {}
        self.unmodeled = list(self.overlaps)
        dv, dn = img.dynamic
        self.unmodeled.append((dv, dv + dn, 'the dynamic section, which the loader rewrites with the load base'))
        self._lazy = {}
        for r in self.records:
            if not r.size:
                continue
            why = None
            seg = img.segment_of(r.where)
            if seg is None or r.where + r.size > seg[0] + seg[1]:
                why = '%s writes outside the loaded segments' % r.describe(img)
            elif not seg[4] & 2:
                why = ('%s patches %s, which the file maps read-only (DT_TEXTREL: the loader makes it writable '
                       'to relocate it)' % (r.describe(img), 'code' if seg[4] & 1 else 'read-only data'))
            elif r.type in (R_RELATIVE, R_RELATIVE64):
                words[r.where] = Reloc('relative', None, self._relr_value(r) if r.table == 'DT_RELR' else r.addend, 0)
            elif r.type in (R_64, R_GLOB_DAT, R_JUMP_SLOT) and r.sym is not None:
                how, what = self.binding(r)
                kind = {R_64: 'abs', R_GLOB_DAT: 'got', R_JUMP_SLOT: 'plt'}[r.type]
                if r.type != R_64 and r.addend:
                    why = ('%s has an addend (%d), which glibc adds when it binds at load and not when it binds '
                           'lazily' % (r.describe(img), r.addend))
                elif how == 'own':
                    words[r.where] = Reloc(kind, r.sym.name, what.value, r.addend)
                elif how == 'abs':
                    words[r.where] = Reloc(kind, r.sym.name, None, r.addend, value=(what + r.addend) % (1 << 64))
                elif how == 'zero':
                    words[r.where] = Reloc(kind, r.sym.name, None, r.addend, value=r.addend % (1 << 64))
                elif how == 'import':
                    words[r.where] = Reloc(kind, what, None, r.addend)
                elif how == 'mismatch':
                    why = '%s: %s' % (r.describe(img), what)
                else:
                    why = ('%s binds to an IFUNC (%s): the word holds what its resolver picks on the CPU that '
                           'loads it' % (r.describe(img), what.describe()))
            elif r.type == R_NONE:
                continue
            else:
                why = '%s%s' % (r.describe(img), ': the word holds what an IFUNC resolver picks on the CPU that loads '
                                'it' if r.type == R_IRELATIVE else ', a relocation the prover does not model')
            if why:
                self.unmodeled.append((r.where, r.where + r.size, why))
        at = sorted(words)
        for lo, hi, _ in self.unmodeled:   # a word with an unmodelled byte is not read as a relocated word
            k = bisect.bisect_left(at, lo - 7)
            while k < len(at) and at[k] < hi:
                words.pop(at[k], None)
                k += 1
        self.unmodeled.sort()
        return words

    def _relr_value(self, r):
        return self._u(r.where, 8, 'relocated word')

    def unmodeled_problem(self, vaddr, n):
        for lo, hi, why in self.unmodeled:
            if lo < vaddr + n and vaddr < hi:
                return why
        return None

    # ---- lazy binding of a PLT slot
    def lazy_problem(self, where):
        """Why the PLT slot at where may hold, while the library runs under
        lazy binding, other than its bound symbol; None when it cannot."""
        if where not in self._lazy:
            self._lazy[where] = self._lazy_problem(where)
        return self._lazy[where]

    def _lazy_problem(self, where):
        img = self.img
        if img.bind_now:
            return None
        recs = [r for r in self.records if r.where == where and r.type == R_JUMP_SLOT and r.lazy]
        if not recs:
            return None
        r = recs[0]
        got = img.dyn.get(DT_PLTGOT)
        stub = self._u(where, 8, 'PLT slot')
        if got is None:
            return '%s is bound lazily, and the library has no DT_PLTGOT' % r.describe(img)
        if self._u(got + 8, 8, 'GOT[1]'):
            return '%s is bound lazily through a prelinked GOT (GOT[1] is not 0)' % r.describe(img)
        why = self._stub_problem(stub, r.index, got)
        bound = img.relocs.get(where)
        own = bound is not None and bound.target is not None   # bound to the library's own definition
        others = img.loaded.definers(r.sym) if img.loaded is not None and own and not why else []
        if others:   # loaded by the library's own loading (a constructor's dlopen), after it was relocated
            return ('%s is bound lazily (no -z now), and %s, which loading brought in, define%s %s too: a first '
                    'call may bind there' % (r.describe(img), ', '.join(others), 's' if len(others) == 1 else '',
                                            r.sym.name))
        if why:
            return ('%s is bound lazily (no -z now): until its first call the slot holds %s, and %s, so the first '
                    'call may run other code than %s' % (r.describe(img), img.where(stub), why, r.sym.name))
        return None

    def _stub_problem(self, at, index, got):
        """Why the code at `at` is not the lazy PLT stub of relocation
        `index` (endbr64?; push $index; bnd? jmp PLT0, where PLT0 pushes
        GOT[1] and jumps through GOT[2]), or None. The bytes are the file's:
        a stub changed while loading is refused where the proof reads it."""
        img = self.img
        code = img.file_bytes(at, 16)
        if code is None or not img.executable(at):
            return 'that is not code'
        changed = img.code_problem(at, 12)
        if changed:
            return 'its stub %s' % changed
        k = 4 if code[:4] == b'\xf3\x0f\x1e\xfa' else 0
        if code[k] != 0x68 or int.from_bytes(code[k + 1:k + 5], 'little') != index:
            return 'that is not a push of its relocation index %d' % index
        k += 5
        k += code[k] == 0xf2
        if code[k] != 0xe9:
            return 'it does not jump to PLT0 after the push'
        plt0 = (at + k + 5 + int.from_bytes(code[k + 1:k + 5], 'little', signed=True)) % (1 << 64)
        p = img.file_bytes(plt0, 16)
        if p is None or not img.executable(plt0):
            return 'its PLT0 at %#x is not code' % plt0
        changed = img.code_problem(plt0, 13)
        if changed:
            return 'its PLT0 %s' % changed
        if p[:2] != b'\xff\x35' or plt0 + 6 + int.from_bytes(p[2:6], 'little', signed=True) != got + 8:
            return 'its PLT0 at %#x does not push GOT[1]' % plt0
        j = 6 + (p[6] == 0xf2)
        if p[j:j + 2] != b'\xff\x25' or plt0 + j + 6 + int.from_bytes(p[j + 2:j + 6], 'little', signed=True) != got + 16:
            return 'its PLT0 at %#x does not jump through GOT[2]' % plt0
        return None


def own_binding(s):
    from q7prove.elf.symbols import SHN_ABS, STT_GNU_IFUNC
    if s.kind == STT_GNU_IFUNC:
        return ('ifunc', s)
    if s.shndx == SHN_ABS:
        return ('abs', s.value)
    return ('own', s)
