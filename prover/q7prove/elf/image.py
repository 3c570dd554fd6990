# SPDX-License-Identifier: BSD-3-Clause
"""A shared library's file as glibc's dynamic loader reads it, by hand:
its loaded segments (bytes and permissions by virtual address), its
dynamic section (the last of a repeated tag, as the loader takes it), its
dynamic symbols with their versions, found through the hash table in the
loader's order (elf/symbols.py), its relocations in the order the loader
applies them (elf/relocs.py), and the section headers' names for messages.

Alone, an Image is the file: its bytes as the file holds them, its
relocated words as the relocation tables say. Once the loaded images of
the library are attached (elf/loaded.py, LoadedImage.attach), every byte
is the one the loader left in a real process, and every byte that a
proof may not rely on (a relocation the prover does not model, a byte that
differs from the file with its relocations applied, a page made writable
while loading) refuses the read that reaches it, naming it.

Only a 64-bit little-endian x86-64 shared object is read; anything else,
and anything in the file that the loader would read past its end, is an
ElfError with one line saying what and where.
"""
import bisect

from q7prove.elf import relocs as elf_relocs
from q7prove.elf import symbols as elf_symbols

EM_X86_64 = 62
ET_DYN = 3
PT_LOAD, PT_DYNAMIC, PT_INTERP, PT_TLS, PT_GNU_RELRO = 1, 2, 3, 7, 0x6474e552
PF_X, PF_W, PF_R = 1, 2, 4
SHT_SYMTAB, SHT_DYNSYM = 2, 11
SHF_ALLOC = 2
STT_FUNC, STT_GNU_IFUNC = 2, 10
DT_NULL, DT_FLAGS, DT_FLAGS_1, DT_BIND_NOW, DT_TEXTREL = 0, 30, 0x6ffffffb, 24, 22
DT_INIT, DT_INIT_ARRAY, DT_INIT_ARRAYSZ = 12, 25, 27      # the initializers the loader calls
DF_TEXTREL, DF_BIND_NOW, DF_1_NOW, DF_1_PIE = 4, 8, 1, 0x08000000
MACHINES = {3: 'x86 (32-bit)', 40: 'ARM', 183: 'AArch64', 243: 'RISC-V', 22: 'S/390', 21: 'PowerPC64', 8: 'MIPS'}
TYPES = {1: 'an object file (ET_REL)', 2: 'an executable (ET_EXEC)', 4: 'a core file (ET_CORE)'}
PAGE = 4096
MAX_DYNAMIC = 1 << 16      # dynamic entries read before giving up on a missing DT_NULL


class ElfError(Exception):
    pass


class Reader:
    """Bounded little-endian reads of the file's bytes: a read past the end
    is an ElfError naming what was read, never a struct error."""

    def __init__(self, data, name):
        self.data, self.name = data, name

    def need(self, off, n, what):
        if off < 0 or n < 0 or off + n > len(self.data):
            raise ElfError("'%s': its %s (%d bytes at file offset %#x) lies outside the file's %d bytes"
                           % (self.name, what, n, off & ((1 << 64) - 1), len(self.data)))

    def uint(self, off, n, what):
        self.need(off, n, what)
        return int.from_bytes(self.data[off:off + n], 'little')

    def sint(self, off, n, what):
        v = self.uint(off, n, what)
        return v - (1 << (8 * n)) if v >> (8 * n - 1) else v


class Segment(tuple):
    """A PT_LOAD: (vaddr, memsz, offset, filesz, flags), as the old tuples."""
    __slots__ = ()


class Image:
    def __init__(self, path, name=None):
        self.name = name or path
        self.path = path
        try:
            with open(path, 'rb') as f:
                data = f.read()
        except OSError as e:
            raise ElfError("cannot read '%s': %s" % (self.name, e.strerror))
        self.data = data
        self.file = Reader(data, self.name)
        self.loaded = None          # the LoadedImage, once attached
        self.load_problem = None    # why the loaded image could not be read, when it could not
        self._header()
        self._segments()
        self._sections()
        self.dyn, self.dyn_repeated = self._dynamic()
        self._flags()
        self.syms = elf_symbols.SymbolTable(self)
        self.symbols = [s for s in self.syms.entries if s.bind in (1, 2, 10)]
        self.by_name, self.binding_problem = self.syms.dlsym_table()
        if not self.syms.entries:
            raise ElfError("'%s' has no dynamic symbol table (stripped of .dynsym?)" % self.name)
        self.dynsym_order = self.syms.entries
        self.rel = elf_relocs.Relocations(self)
        self.relocs = self.rel.modeled_words()
        self._reloc_at = sorted(self.relocs)
        self.local_names = self._local_symbols()

    # ---- the header
    def _header(self):
        d, name = self.data, self.name
        if len(d) < 64 or d[:4] != b'\x7fELF':
            raise ElfError("'%s' is not an ELF file" % name)
        if d[4] != 2 or d[5] != 1:
            raise ElfError("'%s' is a %s ELF file; prove reads 64-bit little-endian x86-64 ones only"
                           % (name, '32-bit' if d[4] == 1 else 'big-endian' if d[5] == 2 else 'non-64-bit'))
        machine = self.file.uint(18, 2, 'header')
        if machine != EM_X86_64:
            raise ElfError("'%s' is an ELF file for %s (machine %d); prove reads x86-64 code only"
                           % (name, MACHINES.get(machine, 'another machine'), machine))
        kind = self.file.uint(16, 2, 'header')
        if kind != ET_DYN:
            raise ElfError("'%s' is %s, not a shared library: the loader does not load it"
                           % (name, TYPES.get(kind, 'an ELF file of unknown type %d' % kind)))

    # ---- segments: what is loaded where, with which permissions
    def _segments(self):
        f = self.file
        phoff, phent, phnum = f.uint(32, 8, 'header'), f.uint(54, 2, 'header'), f.uint(56, 2, 'header')
        if phent != 56:
            raise ElfError("'%s': its program headers are %d bytes each, not 56: the loader refuses it"
                           % (self.name, phent))
        self.loads, self.dynamic, self.relro, self.tls, self.interp = [], None, None, None, False
        dynamics = 0
        for i in range(phnum):
            p = phoff + i * 56
            f.need(p, 56, 'program header %d' % i)
            kind, flags = f.uint(p, 4, 'program header'), f.uint(p + 4, 4, 'program header')
            off, vaddr = f.uint(p + 8, 8, 'program header'), f.uint(p + 16, 8, 'program header')
            filesz, memsz = f.uint(p + 32, 8, 'program header'), f.uint(p + 40, 8, 'program header')
            if kind == PT_LOAD:
                if memsz == 0:
                    continue
                f.need(off, filesz, 'PT_LOAD %d' % i)
                if filesz > memsz or vaddr % PAGE != off % PAGE or vaddr + memsz >= 1 << 47:
                    raise ElfError("'%s': its PT_LOAD %d (%#x bytes at %#x, file offset %#x) is one the loader "
                                   "maps otherwise than it reads" % (self.name, i, memsz, vaddr, off))
                if self.loads and vaddr < self.loads[-1][0] + self.loads[-1][1]:
                    prev = self.loads[-1]
                    raise ElfError("'%s': its PT_LOADs at %#x and %#x %s: the loader maps the later over the "
                                   "earlier; prove does not read such a file"
                                   % (self.name, prev[0], vaddr, 'overlap' if vaddr >= prev[0] else
                                      'are out of address order'))
                self.loads.append(Segment((vaddr, memsz, off, filesz, flags)))
            elif kind == PT_DYNAMIC:
                dynamics += 1
                self.dynamic = (vaddr, memsz)
            elif kind == PT_GNU_RELRO:
                self.relro = (vaddr, vaddr + memsz)
            elif kind == PT_TLS:
                self.tls = (vaddr, memsz)
            elif kind == PT_INTERP:
                self.interp = True
        if not self.loads:
            raise ElfError("'%s' has no loadable segment" % self.name)
        if dynamics != 1:
            raise ElfError("'%s' has %s dynamic segment (PT_DYNAMIC)" % (self.name, 'no' if not dynamics else
                                                                         'more than one'))
        self._starts = [s[0] for s in self.loads]

    def segment_of(self, vaddr):
        k = bisect.bisect_right(self._starts, vaddr) - 1
        if k >= 0 and vaddr < self.loads[k][0] + self.loads[k][1]:
            return self.loads[k]
        return None

    def span(self):
        """[lo, hi): the pages the loader reserves for the library."""
        return self.loads[0][0] & ~(PAGE - 1), (self.loads[-1][0] + self.loads[-1][1] + PAGE - 1) & ~(PAGE - 1)

    def file_bytes(self, vaddr, n):
        """The bytes the file puts at vaddr (a segment's zero fill past its
        file part), before any relocation; None where nothing is loaded."""
        seg = self.segment_of(vaddr)
        if seg is None or vaddr + n > seg[0] + seg[1]:
            return None
        start, _, off, filesz, _ = seg
        out = bytearray(n)
        k = vaddr - start
        have = max(0, min(n, filesz - k))
        out[:have] = self.data[off + k:off + k + have]
        return bytes(out)

    def file_readonly(self, vaddr, n):
        """Read-only while the library runs, by the file: a segment without
        write permission, or the RELRO range (read-only once relocated)."""
        seg = self.segment_of(vaddr)
        if seg is None or vaddr + n > seg[0] + seg[1] or not seg[4] & PF_R:
            return False
        if not seg[4] & PF_W:
            return True
        return self.relro is not None and self.relro[0] <= vaddr and vaddr + n <= self.relro[1]

    def readable(self, vaddr, n):
        """Loaded, and read-only while the library runs (the loaded page's
        permissions too once the loaded image is attached)."""
        if not self.file_readonly(vaddr, n):
            return False
        return self.loaded is None or self.loaded.readonly(vaddr, n)

    def trusted_slot(self, vaddr, n):
        """Whether the relocated word at vaddr holds what the loader put
        there while the library runs: it is read-only once relocated, or it
        is a GOT or PLT slot (.got/.got.plt) the loader resolves to a symbol.
        Any other relocated word in writable memory (a pointer in .data) may
        be changed by the library's own code, a constructor say."""
        if self.readable(vaddr, n):
            return True
        sec = self.section_of(vaddr)
        return (sec is not None and sec['name'] in ('.got', '.got.plt') and
                all(r.kind in ('got', 'plt') and r.sym for _, r in self.relocated(vaddr, n)))

    def executable(self, vaddr):
        seg = self.segment_of(vaddr)
        if seg is None or not seg[4] & PF_X:
            return False
        return self.loaded is None or self.loaded.executable(vaddr)

    def bytes_at(self, vaddr, n):
        """The loaded bytes at vaddr: the file's, or once attached what the
        loader left there (a relocated word as loaded at the first base)."""
        if self.loaded is not None:
            return self.loaded.bytes_at(vaddr, n)
        out = self.file_bytes(vaddr, n)
        if out is None:
            raise ElfError('address %#x is not loaded' % vaddr)
        return out

    def code_at(self, vaddr, n):
        """Bytes to decode at vaddr: up to the first one a proof may not
        rely on (code_problem says why), so no instruction is decoded from
        bytes other than those that run."""
        data = self.bytes_at(vaddr, n)
        if self.loaded is None:
            return data
        return data[:self.loaded.stable_prefix(vaddr, len(data), code=True)]

    def code_problem(self, vaddr, n):
        """Why the code bytes at vaddr are not the ones the proof may read, or None."""
        return self.loaded.problem(vaddr, n, code=True) if self.loaded is not None else None

    def unstable(self, vaddr, n):
        """Why a read of n bytes at vaddr is not of bytes the proof may rely
        on (a relocation it does not model, a byte changed while loading, a
        page made writable), or None."""
        why = self.rel.unmodeled_problem(vaddr, n)
        for w, r in self.relocated(vaddr, n) if not why else ():
            if r.kind == 'plt':
                why = why or self.rel.lazy_problem(w)
        if why or self.loaded is None:
            return why
        return self.loaded.problem(vaddr, n, code=False)

    def _vaddr_offset(self, vaddr):
        seg = self.segment_of(vaddr)
        if seg is None or vaddr - seg[0] >= seg[3]:
            return None
        return seg[2] + vaddr - seg[0]

    def cstr_at(self, vaddr, limit=4096):
        """The NUL-terminated string the loader reads at vaddr (from the
        file's bytes), or None when it is not in the file's loaded part."""
        off = self._vaddr_offset(vaddr)
        if off is None:
            return None
        seg = self.segment_of(vaddr)
        end_file = seg[2] + seg[3]
        end = self.data.find(b'\0', off, min(end_file, off + limit))
        if end < 0:
            return None
        return self.data[off:end].decode('utf-8', 'replace')

    # ---- the dynamic section, read from memory as the loader reads it
    def _dynamic(self):
        vaddr, memsz = self.dynamic
        tags, repeated = {}, set()
        for i in range(MAX_DYNAMIC):
            raw = self.file_bytes(vaddr + 16 * i, 16)
            if raw is None or self._vaddr_offset(vaddr + 16 * i + 15) is None:
                raise ElfError("'%s': its dynamic section has no DT_NULL within the file" % self.name)
            tag, val = int.from_bytes(raw[:8], 'little'), int.from_bytes(raw[8:], 'little')
            if tag == DT_NULL:
                return tags, repeated
            if tag in tags:
                repeated.add(tag)
            tags[tag] = val        # the loader keeps the last of a repeated tag
        raise ElfError("'%s': its dynamic section has more than %d entries" % (self.name, MAX_DYNAMIC))

    def _flags(self):
        flags, flags1 = self.dyn.get(DT_FLAGS, 0), self.dyn.get(DT_FLAGS_1, 0)
        if flags1 & DF_1_PIE:
            raise ElfError("'%s' is a position-independent executable (DF_1_PIE), not a shared library: the "
                           "loader does not load it" % self.name)
        self.bind_now = DT_BIND_NOW in self.dyn or bool(flags & DF_BIND_NOW) or bool(flags1 & DF_1_NOW)
        self.textrel = DT_TEXTREL in self.dyn or bool(flags & DF_TEXTREL)

    # ---- sections: names for messages only (the loader never reads them)
    def _sections(self):
        self.sections = []
        f = self.file
        try:
            shoff, shent, shnum, shstrndx = f.uint(40, 8, ''), f.uint(58, 2, ''), f.uint(60, 2, ''), f.uint(62, 2, '')
            if shent != 64 or shoff + shnum * 64 > len(self.data):
                return
            raw = []
            for i in range(shnum):
                s = shoff + i * 64
                raw.append((f.uint(s, 4, ''), f.uint(s + 4, 4, ''), f.uint(s + 8, 8, ''), f.uint(s + 16, 8, ''),
                            f.uint(s + 24, 8, ''), f.uint(s + 32, 8, ''), f.uint(s + 40, 4, '')))
        except ElfError:
            return
        names = raw[shstrndx][4] if 0 < shstrndx < len(raw) else None
        for name, kind, flags, addr, off, size, link in raw:
            text = '?'
            if names is not None and 0 <= names + name < len(self.data):
                end = self.data.find(b'\0', names + name, names + name + 256)
                if end >= 0:
                    text = self.data[names + name:end].decode('utf-8', 'replace')
            self.sections.append({'name': text, 'type': kind, 'flags': flags, 'addr': addr, 'offset': off,
                                  'size': size, 'link': link})

    def section_of(self, vaddr):
        for s in self.sections:
            if s['flags'] & SHF_ALLOC and s['addr'] <= vaddr < s['addr'] + s['size']:
                return s
        return None

    def where(self, vaddr):
        """'.rodata+0x10' for messages."""
        s = self.section_of(vaddr)
        return '%s+%#x' % (s['name'], vaddr - s['addr']) if s else '%#x' % vaddr

    def _local_symbols(self):
        """vaddr -> name from .symtab when the file kept it (messages only)."""
        names = {}
        for s in self.sections:
            if s['type'] != SHT_SYMTAB or s['link'] >= len(self.sections) or s['size'] > len(self.data):
                continue
            st = self.sections[s['link']]
            for k in range(1, s['size'] // 24):
                e = s['offset'] + 24 * k
                if e < 0 or e + 24 > len(self.data):
                    break
                name, info = int.from_bytes(self.data[e:e + 4], 'little'), self.data[e + 4]
                shndx, value = int.from_bytes(self.data[e + 6:e + 8], 'little'), int.from_bytes(self.data[e + 8:e + 16],
                                                                                               'little')
                o = st['offset'] + name
                if info & 15 != STT_FUNC or not shndx or not 0 <= o < len(self.data):
                    continue
                end = self.data.find(b'\0', o, o + 256)
                if end > o:
                    names.setdefault(value, self.data[o:end].decode('utf-8', 'replace'))
        for sym in self.symbols:
            if sym.defined:
                names[sym.value] = sym.name
        return names

    def function_name(self, vaddr):
        return self.local_names.get(vaddr)

    # ---- relocated words
    def relocated(self, vaddr, n):
        """The modelled relocated words that touch [vaddr, vaddr + n)."""
        k = bisect.bisect_left(self._reloc_at, vaddr - 7)
        out = []
        while k < len(self._reloc_at) and self._reloc_at[k] < vaddr + n:
            w = self._reloc_at[k]
            out.append((w, self.relocs[w]))
            k += 1
        return out
