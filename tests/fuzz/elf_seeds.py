#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Small ELF shared objects written by hand, byte by byte from the ELF-64
gABI (no linker, no library of this repository): the seeds of the `elf`
fuzz target (tests/fuzz/corpus/elf/) and the files of the probe's hostile
ELF test (tests/test_probe_elf.sh).

    elf_seeds.py DIR             the committed seeds into DIR
    elf_seeds.py --one KIND OUT  one file (KIND below) into OUT

Each file is 64-bit little-endian ET_DYN for x86-64 with one PT_LOAD
segment covering the whole file at address 0 (so a virtual address is its
file offset), a PT_DYNAMIC segment, a .dynsym of the given names (all
global functions) and its .dynstr, and section headers for both.

KIND:
  hash        the table found through DT_HASH
  gnu-hash    through DT_GNU_HASH (one bucket, every name in its chain)
  sections    no PT_DYNAMIC: the table found from the section headers
  many-phdrs  65535 program headers (PT_LOAD of address 1 GiB and up: no
              symbol lies in one), 60000 module__xdref_ names past them:
              every name's address is looked up among the segments
  too-many-names, long-names, gnu-hash-broken, nchain-huge, strsz-huge,
  dynstr-past, dynsym-past, no-table, name-past: hash, gnu-hash or
              sections with one thing broken (one()'s comments)
"""
import os
import struct
import sys

PT_LOAD, PT_DYNAMIC = 1, 2
DT_NULL, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_STRSZ, DT_SYMENT = 0, 4, 5, 6, 10, 11
DT_GNU_HASH = 0x6FFFFEF5
SHT_STRTAB, SHT_DYNSYM = 3, 11

NAMES = [b"module__xdref_lt_1_8_8", b"module__xdref_olt_1_1_16f_16f", b"module__xdref_zz_unknown", b"other"]


def gnu_hash(name):
    """The GNU hash of a symbol name (h = h * 33 + c from 5381, 32 bits)."""
    h = 5381
    for c in name:
        h = (h * 33 + c) & 0xFFFFFFFF
    return h


def elf(names, how="hash", extra_phdrs=0, sym_vaddr=None):
    """The bytes of one file."""
    strtab = b"\0" + b"".join(n + b"\0" for n in names)
    offs, at = [], 1
    for n in names:
        offs.append(at)
        at += len(n) + 1
    nsym = len(names) + 1
    nph = (1 if how == "sections" else 2) + extra_phdrs
    # layout: header, phdrs, dynamic, hash, dynsym, dynstr, code byte, section headers
    ph_at = 64
    dyn_at = ph_at + 56 * nph
    dyn_n = 6
    hash_at = dyn_at + 16 * dyn_n
    if how == "gnu-hash":
        # nbuckets 1, symoffset 1, bloom size 1, shift 0; bloom word; bucket; chain
        hashed = struct.pack("<IIII", 1, 1, 1, 0) + struct.pack("<Q", ~0 & (2**64 - 1)) + struct.pack("<I", 1)
        hashed += b"".join(struct.pack("<I", (gnu_hash(n) & ~1) | (i == nsym - 2)) for i, n in enumerate(names))
    else:
        # nbucket 1, nchain nsym, bucket -> 1, chain i -> i+1
        hashed = struct.pack("<II", 1, nsym) + struct.pack("<I", 1)
        hashed += b"".join(struct.pack("<I", (i + 1 if 0 < i < nsym - 1 else 0)) for i in range(nsym))
    sym_at = (hash_at + len(hashed) + 7) & ~7
    str_at = sym_at + 24 * nsym
    code_at = str_at + len(strtab)
    sh_at = (code_at + 1 + 7) & ~7
    size = sh_at + 64 * 3
    value = code_at if sym_vaddr is None else sym_vaddr

    out = bytearray(size)
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    struct.pack_into("<16sHHIQQQIHHHHHH", out, 0, ident, 3, 62, 1, 0, ph_at, sh_at, 0, 64, 56, nph, 64, 3, 0)
    ph = [(PT_LOAD, 7, 0, 0, 0, size, size, 0x1000)]
    if how != "sections":
        ph.append((PT_DYNAMIC, 6, dyn_at, dyn_at, dyn_at, 16 * dyn_n, 16 * dyn_n, 8))
    for i in range(extra_phdrs):
        va = (1 << 30) + i * 0x1000
        ph.append((PT_LOAD, 4, 0, va, va, 16, 16, 0x1000))
    for i, p in enumerate(ph):
        struct.pack_into("<IIQQQQQQ", out, ph_at + 56 * i, *p)
    dyn = [(DT_HASH if how != "gnu-hash" else DT_GNU_HASH, hash_at), (DT_STRTAB, str_at), (DT_SYMTAB, sym_at),
           (DT_STRSZ, len(strtab)), (DT_SYMENT, 24), (DT_NULL, 0)]
    for i, (tag, val) in enumerate(dyn):
        struct.pack_into("<qQ", out, dyn_at + 16 * i, tag, val)
    out[hash_at:hash_at + len(hashed)] = hashed
    for i, o in enumerate(offs):   # STB_GLOBAL, STT_FUNC, section 1
        struct.pack_into("<IBBHQQ", out, sym_at + 24 * (i + 1), o, 0x12, 0, 1, value, 1)
    out[str_at:str_at + len(strtab)] = strtab
    out[code_at] = 0xC3   # ret
    global layout
    layout = dict(ph=ph_at, dyn=dyn_at, hash=hash_at, sym=sym_at, str=str_at, sh=sh_at, nsym=nsym)
    # section headers: null, .dynsym (link 2), .dynstr
    struct.pack_into("<IIQQQQIIQQ", out, sh_at + 64, 0, SHT_DYNSYM, 2, sym_at, sym_at, 24 * nsym, 2, 1, 8, 24)
    struct.pack_into("<IIQQQQIIQQ", out, sh_at + 128, 0, SHT_STRTAB, 2, str_at, str_at, len(strtab), 0, 0, 1, 0)
    return bytes(out)


layout = {}   # where elf() put each part of its last file


def patched(data, *edits):
    """data with each (offset, struct format, value) written over it."""
    b = bytearray(data)
    for at, fmt, value in edits:
        struct.pack_into(fmt, b, at, value)
    return bytes(b)


def one(kind):
    if kind in ("hash", "gnu-hash", "sections"):
        return elf(NAMES, kind)
    if kind == "many-phdrs":
        names = [b"module__xdref_zz_%d" % i for i in range(60000)]
        return elf(names, "hash", extra_phdrs=65533, sym_vaddr=0x7FFF00000000)
    if kind == "too-many-names":   # one past the reader's limit
        return elf([b"module__xdref_q%d" % i for i in range(65537)], "hash")
    if kind == "long-names":       # 100 KB names
        return elf([b"module__xdref_" + b"a" * 100000 + b"%d" % i for i in range(200)], "hash")
    if kind == "gnu-hash-broken":  # the chain's hashes wrong: listed, yet the loader finds none
        d = elf(NAMES, "gnu-hash")
        return patched(d, *[(layout["hash"] + 24 + 4 + 4 * i, "<I", 2 * i + (i == len(NAMES) - 1))
                            for i in range(len(NAMES))])
    if kind == "nchain-huge":      # DT_HASH: 2^32-1 symbols
        d = elf(NAMES, "hash")
        return patched(d, (layout["hash"] + 4, "<I", 0xFFFFFFFF))
    if kind == "strsz-huge":       # DT_STRSZ past the end of the file
        d = elf(NAMES, "hash")
        return patched(d, (layout["dyn"] + 16 * 3 + 8, "<Q", 1 << 60))
    if kind == "dynstr-past":      # sections only; .dynstr's offset past the end
        d = elf(NAMES, "sections")
        return patched(d, (layout["sh"] + 128 + 24, "<Q", (1 << 63) + 5))
    if kind == "dynsym-past":      # sections only; .dynsym's offset past the end
        d = elf(NAMES, "sections")
        return patched(d, (layout["sh"] + 64 + 24, "<Q", len(d) - 8))
    if kind == "no-table":         # no PT_DYNAMIC, no section headers
        d = elf(NAMES, "sections")
        return patched(d, (60, "<H", 0))
    if kind == "name-past":        # every name's offset past .dynstr
        d = elf(NAMES, "hash")
        return patched(d, *[(layout["sym"] + 24 * (i + 1), "<I", 0xFFFFFF00) for i in range(len(NAMES))])
    raise SystemExit("elf_seeds.py: unknown kind '%s' (%s)" % (kind, ", ".join(KINDS)))


KINDS = ["hash", "gnu-hash", "sections", "many-phdrs", "too-many-names", "long-names", "gnu-hash-broken",
         "nchain-huge", "strsz-huge", "dynstr-past", "dynsym-past", "no-table", "name-past"]


def main(argv):
    if len(argv) == 4 and argv[1] == "--one":
        with open(argv[3], "wb") as f:
            f.write(one(argv[2]))
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for kind in ("hash", "gnu-hash", "sections"):
        with open(os.path.join(argv[1], kind + ".so"), "wb") as f:
            f.write(one(kind))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
