# SPDX-License-Identifier: BSD-3-Clause
"""A library's dynamic symbols as glibc's loader finds them: the entries of
DT_SYMTAB read where the loader reads them (names at DT_STRTAB + st_name,
unbounded by DT_STRSZ, as the loader does not bound them), their versions
(DT_VERSYM, DT_VERDEF, DT_VERNEED), and a name's lookup through the GNU
or SysV hash table in the loader's chain order with its matching rules
(elf/dl-lookup.c: a symbol without a value, of a type that is no
definition, or undefined for a PLT reference does not match; a hidden
version matches only when asked for by name; without a version asked
for, an unversioned definition wins, else the one non-hidden versioned
definition; a local symbol found first hides the name in this object).

What the lookup cannot settle the way every caller would (two visible
definitions of one name, a name read past DT_STRSZ) is a binding problem
for that name: a leaf of that name is unproven, naming it.
"""
DT_HASH, DT_STRTAB, DT_SYMTAB, DT_STRSZ, DT_SYMENT = 4, 5, 6, 10, 11
DT_GNU_HASH = 0x6ffffef5
DT_VERSYM, DT_VERDEF, DT_VERDEFNUM, DT_VERNEED, DT_VERNEEDNUM = 0x6ffffff0, 0x6ffffffc, 0x6ffffffd, 0x6ffffffe, 0x6fffffff
STB_LOCAL, STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE = 0, 1, 2, 10
STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_COMMON, STT_TLS, STT_GNU_IFUNC = 0, 1, 2, 5, 6, 10
ALLOWED_STT = {STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_COMMON, STT_TLS, STT_GNU_IFUNC}
SHN_UNDEF, SHN_ABS, SHN_COMMON = 0, 0xfff1, 0xfff2
KINDS = {0: 'STT_NOTYPE', 1: 'STT_OBJECT', 2: 'STT_FUNC', 3: 'STT_SECTION', 4: 'STT_FILE', 5: 'STT_COMMON',
         6: 'STT_TLS', 10: 'STT_GNU_IFUNC'}
MAX_SYMBOLS = 1 << 22
MAX_VERSIONS = 1 << 15


def gnu_hash(name):
    h = 5381
    for c in name.encode('utf-8', 'surrogateescape'):
        h = (h * 33 + c) & 0xffffffff
    return h


def elf_hash(name):
    h = 0
    for c in name.encode('utf-8', 'surrogateescape'):
        h = ((h << 4) + c) & 0xffffffff
        g = h & 0xf0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xffffffff
    return h


class Symbol:
    __slots__ = ('index', 'name', 'value', 'size', 'bind', 'kind', 'shndx', 'other', 'version', 'hidden',
                 'versioned', 'name_outside')

    @property
    def defined(self):
        return self.shndx != SHN_UNDEF

    def describe(self):
        v = '' if self.version is None else ('@' if self.hidden else '@@') + self.version
        return '%s%s (.dynsym entry %d)' % (self.name, v, self.index)


class SymbolTable:
    def __init__(self, img):
        self.img, self.err = img, img.file
        from q7prove.elf.image import ElfError
        self.ElfError = ElfError
        dyn = img.dyn
        self.entries, self.cache = [], {}
        if DT_SYMTAB not in dyn or DT_STRTAB not in dyn:
            return
        if dyn.get(DT_SYMENT, 24) != 24:
            raise ElfError("'%s': its symbol entries are %d bytes, not 24" % (img.name, dyn[DT_SYMENT]))
        self.symtab, self.strtab, self.strsz = dyn[DT_SYMTAB], dyn[DT_STRTAB], dyn.get(DT_STRSZ, 0)
        self.versions = self._versions()
        self.hash = self._gnu_hash() if DT_GNU_HASH in dyn else self._sysv_hash() if DT_HASH in dyn else None
        count = self.hash['count'] if self.hash else 0
        if count > MAX_SYMBOLS:
            raise ElfError("'%s' claims %d dynamic symbols" % (img.name, count))
        self.entries = [self.entry(i) for i in range(1, count)]

    def _raw(self, vaddr, n, what):
        b = self.img.file_bytes(vaddr, n)
        if b is None or self.img._vaddr_offset(vaddr + n - 1) is None:
            raise self.ElfError("'%s': its %s at %#x is not in the file's loaded bytes" % (self.img.name, what,
                                                                                          vaddr))
        return b

    def _u(self, vaddr, n, what):
        return int.from_bytes(self._raw(vaddr, n, what), 'little')

    def _string(self, off):
        s = self.img.cstr_at(self.strtab + off)
        return s

    def entry(self, i):
        """.dynsym entry i, read as the loader reads symtab[i]."""
        if i in self.cache:
            return self.cache[i]
        raw = self._raw(self.symtab + 24 * i, 24, 'symbol %d' % i)
        s = Symbol()
        s.index = i
        st_name = int.from_bytes(raw[:4], 'little')
        s.name = self._string(st_name)
        s.name_outside = st_name >= self.strsz or s.name is None
        if s.name is None:
            s.name = '<unreadable name %d>' % i
        s.bind, s.kind = raw[4] >> 4, raw[4] & 15
        s.other = raw[5]
        s.shndx = int.from_bytes(raw[6:8], 'little')
        s.value = int.from_bytes(raw[8:16], 'little')
        s.size = int.from_bytes(raw[16:24], 'little')
        s.version, s.hidden, s.versioned = None, False, 0
        if self.versions is not None:
            vs = self._u(self.versions['versym'] + 2 * i, 2, 'version of symbol %d' % i)
            s.versioned = vs & 0x7fff
            s.hidden = bool(vs & 0x8000)
            v = self.versions['names'].get(s.versioned)
            s.version = v[0] if v and s.versioned >= 2 else None
        self.cache[i] = s
        return s

    # ---- versions: index -> (name, hash, from a verneed?) as the loader lists them
    def _versions(self):
        dyn = self.img.dyn
        if DT_VERSYM not in dyn:
            return None
        names = {}
        if DT_VERNEED in dyn:
            ent = dyn[DT_VERNEED]
            for _ in range(min(dyn.get(DT_VERNEEDNUM, MAX_VERSIONS), MAX_VERSIONS)):
                aux = ent + self._u(ent + 8, 4, 'version need')
                for _ in range(MAX_VERSIONS):
                    h, other = self._u(aux, 4, 'version need'), self._u(aux + 6, 2, 'version need')
                    name = self._string(self._u(aux + 8, 4, 'version need'))
                    names[other & 0x7fff] = (name, h, True)
                    nxt = self._u(aux + 12, 4, 'version need')
                    if not nxt:
                        break
                    aux += nxt
                nxt = self._u(ent + 12, 4, 'version need')
                if not nxt:
                    break
                ent += nxt
        if DT_VERDEF in dyn:
            ent = dyn[DT_VERDEF]
            for _ in range(min(dyn.get(DT_VERDEFNUM, MAX_VERSIONS), MAX_VERSIONS)):
                ndx, h = self._u(ent + 4, 2, 'version definition'), self._u(ent + 8, 4, 'version definition')
                aux = ent + self._u(ent + 12, 4, 'version definition')
                names[ndx & 0x7fff] = (self._string(self._u(aux, 4, 'version definition')), h, False)
                nxt = self._u(ent + 16, 4, 'version definition')
                if not nxt:
                    break
                ent += nxt
        return {'versym': dyn[DT_VERSYM], 'names': names}

    # ---- the hash tables
    def _gnu_hash(self):
        h = self.img.dyn[DT_GNU_HASH]
        nb, symoffset, nwords, shift = (self._u(h + 4 * k, 4, 'GNU hash table') for k in range(4))
        if nb == 0 or nwords == 0 or nwords & (nwords - 1):
            raise self.ElfError("'%s': its GNU hash table (%d buckets, %d bloom words) is one the loader cannot use"
                                % (self.img.name, nb, nwords))
        bloom = h + 16
        buckets = bloom + 8 * nwords
        chains = buckets + 4 * nb
        bucket = [self._u(buckets + 4 * b, 4, 'GNU hash bucket') for b in range(nb)]
        count = symoffset
        for first in bucket:
            if first == 0:
                continue
            if first < symoffset:
                raise self.ElfError("'%s': a GNU hash bucket names symbol %d, below the table's first (%d)"
                                    % (self.img.name, first, symoffset))
            i = first
            while not self._u(chains + 4 * (i - symoffset), 4, 'GNU hash chain') & 1:
                i += 1
                if i > MAX_SYMBOLS:
                    raise self.ElfError("'%s': a GNU hash chain does not end" % self.img.name)
            count = max(count, i + 1)
        return {'kind': 'gnu', 'nb': nb, 'symoffset': symoffset, 'nwords': nwords, 'shift': shift, 'bloom': bloom,
                'bucket': bucket, 'chains': chains, 'count': count}

    def _sysv_hash(self):
        h = self.img.dyn[DT_HASH]
        nb, nchain = self._u(h, 4, 'hash table'), self._u(h + 4, 4, 'hash table')
        if nb == 0:
            raise self.ElfError("'%s': its hash table has no bucket" % self.img.name)
        self._raw(h, 8 + 4 * (nb + nchain), 'hash table')
        return {'kind': 'sysv', 'nb': nb, 'nchain': nchain, 'buckets': h + 8, 'chain': h + 8 + 4 * nb,
                'count': nchain}

    def chain(self, name):
        """The symbol indexes the loader tries for name, in its order."""
        t = self.hash
        if t is None:
            return []
        out = []
        if t['kind'] == 'gnu':
            hv = gnu_hash(name)
            word = self._u(t['bloom'] + 8 * ((hv // 64) & (t['nwords'] - 1)), 8, 'GNU hash bloom filter')
            if not ((word >> (hv & 63)) & (word >> ((hv >> t['shift']) & 63)) & 1):
                return []
            i = t['bucket'][hv % t['nb']]
            if i == 0:
                return []
            while True:
                c = self._u(t['chains'] + 4 * (i - t['symoffset']), 4, 'GNU hash chain')
                if (c ^ hv) >> 1 == 0:
                    out.append(i)
                if c & 1:
                    return out
                i += 1
        i = self._u(t['buckets'] + 4 * (elf_hash(name) % t['nb']), 4, 'hash bucket')
        seen = set()
        while i != 0:
            if i in seen or i >= t['nchain']:
                raise self.ElfError("'%s': the hash chain of '%s' %s" % (self.img.name, name, 'loops' if i in seen
                                                                         else 'leaves the table'))
            seen.add(i)
            out.append(i)
            i = self._u(t['chain'] + 4 * i, 4, 'hash chain')
        return out

    @staticmethod
    def basic_match(s, type_class=0):
        """check_match's first tests: a symbol that is a definition of a kind a lookup takes."""
        if s.value == 0 and s.shndx != SHN_ABS and s.kind != STT_TLS:
            return False
        if type_class & 1 and s.shndx == SHN_UNDEF:
            return False
        return s.kind in ALLOWED_STT

    def lookup(self, name, version=None, newest=True, type_class=0):
        """The entry this object gives a lookup of name (version: the
        (name, hash, hidden) asked for, or None), as do_lookup_x: None when
        it gives none (a local symbol found first ends the search here)."""
        versioned_sym, num_versions = None, 0
        found = None
        for i in self.chain(name):
            s = self.entry(i)
            if not self.basic_match(s, type_class) or s.name != name:
                continue
            if version is not None:
                if self.versions is not None:
                    mine = self.versions['names'].get(s.versioned)
                    same = mine is not None and mine[0] == version[0] and mine[1] == version[1]
                    if not same and (version[2] or (mine is not None and mine[1]) or s.hidden):
                        continue
            elif self.versions is not None and s.versioned >= (2 if newest else 3):
                if not s.hidden:
                    num_versions += 1
                    if num_versions == 1:
                        versioned_sym = s
                continue
            found = s
            break
        if found is None and num_versions == 1:
            found = versioned_sym
        if found is None or found.bind not in (STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE):
            return None
        return found

    def dlsym_table(self):
        """name -> the entry dlsym(handle, name) gives, for every name the
        hash table reaches; and name -> why a caller's binding of it is not
        settled by this table alone."""
        by_name, problems = {}, {}
        names = {}
        for s in self.entries:
            names.setdefault(s.name, []).append(s)
        for name, group in names.items():
            s = self.lookup(name)
            if s is None:
                continue
            by_name[name] = s
            visible = [e for e in group if self.basic_match(e) and e.bind != STB_LOCAL and e.defined and
                       not (self.versions is not None and e.hidden)]
            if len(visible) > 1:
                problems[name] = ('%d .dynsym entries define %s visibly (entries %s): which one a caller binds '
                                  'depends on the order of the hash table and on how it asks'
                                  % (len(visible), name, ', '.join(str(e.index) for e in visible)))
            elif any(e.name_outside for e in group):
                problems[name] = ('a .dynsym entry named %s has its name outside DT_STRSZ (entry %s)'
                                  % (name, ', '.join(str(e.index) for e in group if e.name_outside)))
        return by_name, problems
