# SPDX-License-Identifier: BSD-3-Clause
"""Byte patches that make an ELF reader and glibc's loader disagree, for
tests/test_prove_hostile_loader.sh. Each reads the library the test just
built (section headers and all) and writes it back patched:

  patch_elf.py dup-dynsym LIB       the last q7hostile_decoy<k>'s .dynsym
                                    entry gets the name of
                                    module__xdref_eq_1_8_8: two entries of
                                    one name; the hash table still leads
                                    the loader to eq_1_8_8's own
  patch_elf.py name-outside LIB     as dup-dynsym, and eq_1_8_8's own entry
                                    names itself through the copy of its
                                    name in .rodata, past DT_STRSZ
  patch_elf.py dup-jmprel LIB       a second DT_JMPREL naming a one-entry
                                    table (in q7hostile_room) that points
                                    the helper's PLT slot at q7hostile_wrong
  patch_elf.py plt-addend LIB N     the helper's JUMP_SLOT gets addend N
  patch_elf.py lazy-slot LIB        the helper's PLT slot, as the file has
                                    it (what lazy binding starts from),
                                    points at q7hostile_wrong
  patch_elf.py abs-value LIB S T    the absolute symbol S's value becomes
                                    T's link-time address
  patch_elf.py overlap-load LIB     the PT_NOTE header becomes a PT_LOAD
                                    mapping q7hostile_shadow's page over
                                    eq_1_8_8's, after the code's PT_LOAD
"""
import struct
import sys


class Elf:
    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            self.d = bytearray(f.read())
        shoff, = struct.unpack_from('<Q', self.d, 40)
        shnum, shstrndx = struct.unpack_from('<HH', self.d, 60)
        self.sec = {}
        raw = [struct.unpack_from('<IIQQQQIIQQ', self.d, shoff + 64 * i) for i in range(shnum)]
        names = raw[shstrndx][4]
        for s in raw:
            name = self.cstr(names + s[0])
            self.sec[name] = {'type': s[1], 'addr': s[3], 'off': s[4], 'size': s[5], 'link': s[6]}

    def cstr(self, off):
        return self.d[off:self.d.index(b'\0', off)].decode()

    def u64(self, off):
        return struct.unpack_from('<Q', self.d, off)[0]

    def put64(self, off, v):
        struct.pack_into('<Q', self.d, off, v & (1 << 64) - 1)

    def offset(self, vaddr):
        for s in self.sec.values():
            if s['addr'] and s['type'] != 8 and s['addr'] <= vaddr < s['addr'] + s['size']:
                return s['off'] + vaddr - s['addr']
        raise SystemExit('patch_elf: %#x is in no section' % vaddr)

    def dynsym(self):
        """name -> (entry file offset, st_name, st_value)."""
        ds, st = self.sec['.dynsym'], self.sec['.dynstr']
        out = {}
        for i in range(1, ds['size'] // 24):
            e = ds['off'] + 24 * i
            name, = struct.unpack_from('<I', self.d, e)
            out[self.cstr(st['off'] + name)] = (e, name, self.u64(e + 8))
        return out

    def dynamic(self):
        s = self.sec['.dynamic']
        return [(s['off'] + 16 * k, self.u64(s['off'] + 16 * k), self.u64(s['off'] + 16 * k + 8))
                for k in range(s['size'] // 16)]

    def helper_plt_reloc(self):
        """File offset of the .rela.plt entry of q7hostile_helper."""
        rp = self.sec['.rela.plt']
        want = (self.dynsym()['q7hostile_helper'][0] - self.sec['.dynsym']['off']) // 24
        for k in range(rp['size'] // 24):
            e = rp['off'] + 24 * k
            if self.u64(e + 8) >> 32 == want:
                return e
        raise SystemExit('patch_elf: no PLT relocation of q7hostile_helper')

    def write(self):
        with open(self.path, 'wb') as f:
            f.write(self.d)


def main():
    op, path = sys.argv[1], sys.argv[2]
    e = Elf(path)
    syms = e.dynsym()
    leaf = 'module__xdref_eq_1_8_8'
    if op in ('dup-dynsym', 'name-outside'):
        decoy = max(v[0] for k, v in syms.items() if k.startswith('q7hostile_decoy'))   # the last entry
        struct.pack_into('<I', e.d, decoy, syms[leaf][1])
        if op == 'name-outside':
            copy = syms['q7hostile_name'][2]
            strtab = e.sec['.dynstr']['addr']
            struct.pack_into('<I', e.d, syms[leaf][0], copy - strtab)
    elif op == 'dup-jmprel':
        rel = e.helper_plt_reloc()
        slot = e.u64(rel)
        room = syms['q7hostile_room'][2]
        at = e.offset(room)
        e.put64(at, slot)
        e.put64(at + 8, 8)                               # R_X86_64_RELATIVE
        e.put64(at + 16, syms['q7hostile_wrong'][2])
        dyn = e.dynamic()
        null = next(k for k, (_, tag, _v) in enumerate(dyn) if tag == 0)
        if null + 1 >= len(dyn):
            raise SystemExit('patch_elf: no spare entry in .dynamic')
        off = dyn[null][0]
        e.put64(off, 23)                                 # DT_JMPREL, after the first one
        e.put64(off + 8, room)
    elif op == 'plt-addend':
        rel = e.helper_plt_reloc()
        e.put64(rel + 16, int(sys.argv[3]))
    elif op == 'lazy-slot':
        rel = e.helper_plt_reloc()
        e.put64(e.offset(e.u64(rel)), syms['q7hostile_wrong'][2])
    elif op == 'abs-value':
        sym, target = sys.argv[3:5]
        e.put64(syms[sym][0] + 8, syms[target][2])
    elif op == 'overlap-load':
        phoff, = struct.unpack_from('<Q', e.d, 32)
        phnum, = struct.unpack_from('<H', e.d, 56)
        ph = [list(struct.unpack_from('<IIQQQQQQ', e.d, phoff + 56 * i)) for i in range(phnum)]
        note = next(i for i, p in enumerate(ph) if p[0] == 4)
        target, shadow = syms[leaf][2], syms['q7hostile_shadow'][2]
        ph[note] = [1, 5, e.offset(shadow), target, target, 4096, 4096, 4096]
        # program order: the new PT_LOAD right after the code's (the loader maps it over that)
        new = ph[note]
        code = next(p for p in ph if p[0] == 1 and p is not new and p[1] & 1 and p[3] <= target < p[3] + p[5])
        order = []
        for p in ph:
            if p[0] == 1 and p is not new:
                order.append(p)
                if p is code:
                    order.append(new)
        rest = [p for p in ph if p[0] != 1]
        first = next(i for i, p in enumerate(ph) if p[0] == 1)
        for i, p in enumerate(rest[:first] + order + rest[first:]):
            struct.pack_into('<IIQQQQQQ', e.d, phoff + 56 * i, *p)
    else:
        raise SystemExit('patch_elf: unknown patch %s' % op)
    e.write()


if __name__ == '__main__':
    main()
