# SPDX-License-Identifier: BSD-3-Clause
"""A shared library's file, as the dynamic loader sees it, read by hand:
its loaded segments (bytes and permissions by virtual address, the RELRO
range that is read-only once relocated), its dynamic symbols, the
relocations of .rela.dyn and .rela.plt (what each relocated word holds
once loaded), and the section headers' names for messages.

Only what a 64-bit little-endian x86-64 ELF file says is read; anything
else is an ElfError with one line saying what the file is.
"""
import bisect
import struct

EM_X86_64 = 62
PT_LOAD, PT_DYNAMIC, PT_GNU_RELRO = 1, 2, 0x6474e552
PF_X, PF_W, PF_R = 1, 2, 4
SHT_SYMTAB, SHT_DYNSYM = 2, 11
SHF_ALLOC = 2
STT_GNU_IFUNC = 10
DT_NULL, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELASZ, DT_STRSZ, DT_JMPREL, DT_PLTRELSZ = 0, 5, 6, 7, 8, 10, 23, 2
DT_HASH, DT_GNU_HASH = 4, 0x6ffffef5
R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT, R_X86_64_RELATIVE = 1, 6, 7, 8
MACHINES = {3: 'x86 (32-bit)', 40: 'ARM', 183: 'AArch64', 243: 'RISC-V', 22: 'S/390', 21: 'PowerPC64', 8: 'MIPS'}


class ElfError(Exception):
    pass


class Symbol:
    def __init__(self, name, value, size, defined, kind):
        self.name, self.value, self.size, self.defined, self.kind = name, value, size, defined, kind


class Reloc:
    """A relocated 8-byte word: what the loader writes there. sym is the
    symbol's name (None for RELATIVE); target its address in this file when
    the file defines it, else None (an import)."""

    def __init__(self, kind, sym, target, addend):
        self.kind, self.sym, self.target, self.addend = kind, sym, target, addend


class Image:
    def __init__(self, path):
        try:
            with open(path, 'rb') as f:
                self.data = f.read()
        except OSError as e:
            raise ElfError("cannot read '%s': %s" % (path, e.strerror))
        self.path = path
        d = self.data
        if len(d) < 64 or d[:4] != b'\x7fELF':
            raise ElfError("'%s' is not an ELF file" % path)
        if d[4] != 2 or d[5] != 1:
            raise ElfError("'%s' is a %s ELF file; prove reads 64-bit little-endian x86-64 ones only"
                           % (path, '32-bit' if d[4] == 1 else 'big-endian' if d[5] == 2 else 'non-64-bit'))
        machine = self._u16(18)
        if machine != EM_X86_64:
            raise ElfError("'%s' is an ELF file for %s (machine %d); prove reads x86-64 code only"
                           % (path, MACHINES.get(machine, 'another machine'), machine))
        self._segments()
        self._sections()
        self.symbols = self._dynamic_symbols()
        if self.symbols is None:
            raise ElfError("'%s' has no dynamic symbol table (stripped of .dynsym?)" % path)
        self.by_name = {s.name: s for s in self.symbols if s.defined}
        self.relocs = self._relocations()
        self._reloc_at = sorted(self.relocs)
        self.local_names = self._local_symbols()

    # ---- raw reads of the file
    def _u16(self, o):
        return struct.unpack_from('<H', self.data, o)[0]

    def _u32(self, o):
        return struct.unpack_from('<I', self.data, o)[0]

    def _u64(self, o):
        return struct.unpack_from('<Q', self.data, o)[0]

    def _check(self, off, n, what):
        if off < 0 or off + n > len(self.data):
            raise ElfError("'%s': its %s points outside the file" % (self.path, what))

    def _cstr(self, off):
        end = self.data.find(b'\0', off)
        return self.data[off:end if end >= 0 else len(self.data)].decode('utf-8', 'replace')

    # ---- segments: what is loaded where, with which permissions
    def _segments(self):
        phoff, phent, phnum = self._u64(32), self._u16(54), self._u16(56)
        self.loads, self.dynamic, self.relro = [], None, None
        for i in range(phnum):
            p = phoff + i * phent
            self._check(p, 56, 'program header table')
            kind, flags = self._u32(p), self._u32(p + 4)
            off, vaddr, filesz, memsz = self._u64(p + 8), self._u64(p + 16), self._u64(p + 32), self._u64(p + 40)
            if kind == PT_LOAD:
                self._check(off, filesz, 'segment')
                self.loads.append((vaddr, memsz, off, filesz, flags))
            elif kind == PT_DYNAMIC:
                self.dynamic = (off, filesz)
            elif kind == PT_GNU_RELRO:
                self.relro = (vaddr, vaddr + memsz)
        if not self.loads:
            raise ElfError("'%s' has no loadable segment" % self.path)

    def segment_of(self, vaddr):
        for seg in self.loads:
            if seg[0] <= vaddr < seg[0] + seg[1]:
                return seg
        return None

    def readable(self, vaddr, n):
        """Loaded, and read-only while the library runs: a segment without
        write permission, or the RELRO range (read-only once relocated)."""
        seg = self.segment_of(vaddr)
        if seg is None or vaddr + n > seg[0] + seg[1] or not seg[4] & PF_R:
            return False
        if not seg[4] & PF_W:
            return True
        return self.relro is not None and self.relro[0] <= vaddr and vaddr + n <= self.relro[1]

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
        return seg is not None and bool(seg[4] & PF_X)

    def bytes_at(self, vaddr, n):
        """The loaded bytes at vaddr (a segment's zero fill past its file part)."""
        seg = self.segment_of(vaddr)
        if seg is None or vaddr + n > seg[0] + seg[1]:
            raise ElfError('address %#x is not loaded' % vaddr)
        start, _, off, filesz, _ = seg
        out = bytearray(n)
        k = vaddr - start
        have = max(0, min(n, filesz - k))
        out[:have] = self.data[off + k:off + k + have]
        return bytes(out)

    def _vaddr_offset(self, vaddr):
        seg = self.segment_of(vaddr)
        if seg is None or vaddr - seg[0] >= seg[3]:
            return None
        return seg[2] + vaddr - seg[0]

    # ---- sections: names for messages, and the tables when there is no dynamic section
    def _sections(self):
        shoff, shent, shnum, shstrndx = self._u64(40), self._u16(58), self._u16(60), self._u16(62)
        self.sections = []
        raw = []
        for i in range(shnum):
            s = shoff + i * shent
            self._check(s, 64, 'section header table')
            raw.append((self._u32(s), self._u32(s + 4), self._u64(s + 8), self._u64(s + 16), self._u64(s + 24),
                        self._u64(s + 32), self._u32(s + 40)))
        names = raw[shstrndx][4] if 0 < shstrndx < len(raw) else None
        for name, kind, flags, addr, off, size, link in raw:
            self.sections.append({'name': self._cstr(names + name) if names is not None else '?', 'type': kind,
                                  'flags': flags, 'addr': addr, 'offset': off, 'size': size, 'link': link})

    def section_of(self, vaddr):
        for s in self.sections:
            if s['flags'] & SHF_ALLOC and s['addr'] <= vaddr < s['addr'] + s['size']:
                return s
        return None

    def where(self, vaddr):
        """'.rodata+0x10' for messages."""
        s = self.section_of(vaddr)
        return '%s+%#x' % (s['name'], vaddr - s['addr']) if s else '%#x' % vaddr

    # ---- symbols
    def _read_symbols(self, off, count, strtab, strsz):
        self._check(off, count * 24, 'symbol table')
        out = []
        for i in range(1, count):
            s = off + 24 * i
            name, info, shndx = self._u32(s), self.data[s + 4], self._u16(s + 6)
            if name >= strsz:
                continue
            out.append((self._cstr(strtab + name), info >> 4, info & 15, shndx, self._u64(s + 8), self._u64(s + 16)))
        return out

    def _dynamic_tags(self):
        tags = {}
        if self.dynamic is None:
            return tags
        off, size = self.dynamic
        for o in range(off, off + size - 15, 16):
            tag, val = self._u64(o), self._u64(o + 8)
            if tag == DT_NULL:
                break
            tags.setdefault(tag, val)
        return tags

    def _symbol_count(self, tags):
        if DT_HASH in tags and self._vaddr_offset(tags[DT_HASH]) is not None:
            return self._u32(self._vaddr_offset(tags[DT_HASH]) + 4)
        h = self._vaddr_offset(tags.get(DT_GNU_HASH, 0)) if DT_GNU_HASH in tags else None
        if h is None:
            return None
        nbuckets, symoffset, bloom = self._u32(h), self._u32(h + 4), self._u32(h + 8)
        buckets = h + 16 + bloom * 8
        chains = buckets + 4 * nbuckets
        last = max([self._u32(buckets + 4 * b) for b in range(nbuckets)] + [0])
        if last < symoffset:
            return symoffset
        i = last
        while not self._u32(chains + 4 * (i - symoffset)) & 1:
            i += 1
        return i + 1

    def _dynamic_symbols(self):
        tags = self._dynamic_tags()
        found = None
        if DT_SYMTAB in tags and DT_STRTAB in tags:
            sym, strtab = self._vaddr_offset(tags[DT_SYMTAB]), self._vaddr_offset(tags[DT_STRTAB])
            count = self._symbol_count(tags)
            if sym is not None and strtab is not None and count:
                found = (sym, count, strtab, tags.get(DT_STRSZ, len(self.data) - strtab))
        if found is None:
            for s in self.sections:
                if s['type'] == SHT_DYNSYM and s['link'] < len(self.sections):
                    st = self.sections[s['link']]
                    found = (s['offset'], s['size'] // 24, st['offset'], st['size'])
        if found is None:
            return None
        self.dynsym_order = []
        out = []
        for name, bind, kind, shndx, value, size in self._read_symbols(*found):
            sym = Symbol(name, value, size, shndx != 0, kind)
            self.dynsym_order.append(sym)
            if bind in (1, 2):  # global, weak
                out.append(sym)
        return out

    def _local_symbols(self):
        """vaddr -> name from .symtab when the file kept it (messages only)."""
        names = {}
        for s in self.sections:
            if s['type'] == SHT_SYMTAB and s['link'] < len(self.sections):
                st = self.sections[s['link']]
                for name, _, kind, shndx, value, _ in self._read_symbols(s['offset'], s['size'] // 24, st['offset'],
                                                                        st['size']):
                    if kind == 2 and shndx and name:
                        names.setdefault(value, name)
        for sym in self.symbols:
            if sym.defined:
                names[sym.value] = sym.name
        return names

    def function_name(self, vaddr):
        return self.local_names.get(vaddr)

    # ---- relocations
    def _relocations(self):
        tags = self._dynamic_tags()
        tables = [(tags.get(DT_RELA), tags.get(DT_RELASZ, 0)), (tags.get(DT_JMPREL), tags.get(DT_PLTRELSZ, 0))]
        relocs = {}
        for va, size in tables:
            if not va or not size:
                continue
            off = self._vaddr_offset(va)
            if off is None:
                raise ElfError("'%s': its relocation table is not in the file" % self.path)
            self._check(off, size, 'relocation table')
            for o in range(off, off + size - 23, 24):
                where, info, addend = self._u64(o), self._u64(o + 8), struct.unpack_from('<q', self.data, o + 16)[0]
                kind, index = info & 0xffffffff, info >> 32
                sym = self.dynsym_order[index - 1] if 0 < index <= len(self.dynsym_order) else None
                name = sym.name if sym else None
                target = sym.value if sym and sym.defined else None
                if kind == R_X86_64_RELATIVE:
                    relocs[where] = Reloc('relative', None, addend, 0)
                elif kind in (R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT):
                    relocs[where] = Reloc({1: 'abs', 6: 'got', 7: 'plt'}[kind], name, target,
                                          addend if kind == R_X86_64_64 else 0)
                else:
                    relocs[where] = Reloc('other %d' % kind, name, None, addend)
        return relocs

    def relocated(self, vaddr, n):
        """The relocations that touch [vaddr, vaddr + n)."""
        k = bisect.bisect_left(self._reloc_at, vaddr - 7)
        out = []
        while k < len(self._reloc_at) and self._reloc_at[k] < vaddr + n:
            w = self._reloc_at[k]
            out.append((w, self.relocs[w]))
            k += 1
        return out
