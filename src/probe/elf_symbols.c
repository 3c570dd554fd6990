/* SPDX-License-Identifier: BSD-3-Clause */
/* The dynamic symbol table of an ELF file, by hand (elf_symbols.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_symbols.h"
#include "platform/platform_internal.h"

/* The file in memory, with range-checked little-endian reads. */
typedef struct image {
    const unsigned char *p;
    size_t size;
} image;

static bool in_file(const image *m, uint64_t off, uint64_t len) { return off <= m->size && len <= m->size - off; }
static uint16_t u16(const image *m, uint64_t o) { return (uint16_t)(m->p[o] | m->p[o + 1] << 8); }
static uint32_t u32(const image *m, uint64_t o) { return load_le32(m->p + o); }
static uint64_t u64(const image *m, uint64_t o) { return (uint64_t)u32(m, o) | (uint64_t)u32(m, o + 4) << 32; }

enum { PT_LOAD = 1, PT_DYNAMIC = 2, DT_NULL = 0, DT_HASH = 4, DT_STRTAB = 5, DT_SYMTAB = 6, DT_STRSZ = 10,
       DT_GNU_HASH = 0x6ffffef5, SHT_DYNSYM = 11, STB_GLOBAL = 1, STB_WEAK = 2, SYM_SIZE = 24 };

/* A virtual address of a loaded segment as a file offset; false if none holds it. */
static bool vaddr_offset(const image *m, uint64_t vaddr, uint64_t *off)
{
    uint64_t phoff = u64(m, 32);
    unsigned phent = u16(m, 54), phnum = u16(m, 56);
    for (unsigned i = 0; i < phnum; i++) {
        uint64_t ph = phoff + (uint64_t)i * phent;
        if (!in_file(m, ph, 56) || u32(m, ph) != PT_LOAD) continue;
        uint64_t poff = u64(m, ph + 8), pva = u64(m, ph + 16), filesz = u64(m, ph + 32);
        if (vaddr >= pva && vaddr - pva < filesz) {
            *off = poff + (vaddr - pva);
            return true;
        }
    }
    return false;
}

/* The number of symbols a GNU hash table covers: past the highest bucket, its chain to the end. */
static bool gnu_hash_count(const image *m, uint64_t h, uint64_t *count)
{
    if (!in_file(m, h, 16)) return false;
    uint32_t nbuckets = u32(m, h), symoffset = u32(m, h + 4), bloom = u32(m, h + 8);
    uint64_t buckets = h + 16 + (uint64_t)bloom * 8, chains = buckets + (uint64_t)nbuckets * 4;
    if (!in_file(m, buckets, (uint64_t)nbuckets * 4)) return false;
    uint32_t last = 0;
    for (uint32_t b = 0; b < nbuckets; b++) last = u32(m, buckets + 4ull * b) > last ? u32(m, buckets + 4ull * b) : last;
    if (last < symoffset) {
        *count = symoffset;
        return true;
    }
    for (uint64_t i = last;; i++) {
        uint64_t at = chains + (i - symoffset) * 4;
        if (!in_file(m, at, 4)) return false;
        if (u32(m, at) & 1) {
            *count = i + 1;
            return true;
        }
    }
}

/* The offset of the first entry of TYPE (the 32-bit field at TYPE_AT) in
 * the header table of NUM entries of ENT bytes at OFF, reading only the
 * entries whose first SIZE bytes lie in the file; 0 (the ELF header's
 * place, never an entry's) when there is none. */
static uint64_t first_entry(const image *m, uint64_t off, unsigned ent, unsigned num, unsigned size, unsigned type_at,
                            uint32_t type)
{
    for (unsigned i = 0; i < num; i++) {
        uint64_t at = off + (uint64_t)i * ent;
        if (at != 0 && in_file(m, at, size) && u32(m, at + type_at) == type) return at;
    }
    return 0;
}

/* Where .dynsym and .dynstr are, from the dynamic section. */
static bool from_dynamic(const image *m, uint64_t *sym, uint64_t *nsym, uint64_t *str, uint64_t *strsz)
{
    uint64_t ph = first_entry(m, u64(m, 32), u16(m, 54), u16(m, 56), 56, 0, PT_DYNAMIC);
    if (!ph) return false;
    uint64_t d = u64(m, ph + 8), dsz = u64(m, ph + 32);
    uint64_t symva = 0, strva = 0, hashva = 0, gnuva = 0;
    *strsz = 0;
    for (uint64_t o = d; o + 16 <= d + dsz && in_file(m, o, 16); o += 16) {
        uint64_t tag = u64(m, o), val = u64(m, o + 8);
        if (tag == DT_NULL) break;
        if (tag == DT_SYMTAB) symva = val;
        else if (tag == DT_STRTAB) strva = val;
        else if (tag == DT_STRSZ) *strsz = val;
        else if (tag == DT_HASH) hashva = val;
        else if (tag == DT_GNU_HASH) gnuva = val;
    }
    uint64_t h;
    if (!symva || !strva || !vaddr_offset(m, symva, sym) || !vaddr_offset(m, strva, str)) return false;
    if (hashva && vaddr_offset(m, hashva, &h) && in_file(m, h, 8)) *nsym = u32(m, h + 4);
    else if (!(gnuva && vaddr_offset(m, gnuva, &h) && gnu_hash_count(m, h, nsym))) return false;
    return true;
}

/* The same from the section headers (a file whose dynamic section says too little). */
static bool from_sections(const image *m, uint64_t *sym, uint64_t *nsym, uint64_t *str, uint64_t *strsz)
{
    uint64_t shoff = u64(m, 40);
    unsigned shent = u16(m, 58), shnum = u16(m, 60);
    uint64_t sh = first_entry(m, shoff, shent, shnum, 64, 4, SHT_DYNSYM);
    if (!sh) return false;
    uint32_t link = u32(m, sh + 40);
    uint64_t lsh = shoff + (uint64_t)link * shent;
    if (link >= shnum || !in_file(m, lsh, 64)) return false;
    *sym = u64(m, sh + 24);
    *nsym = u64(m, sh + 32) / SYM_SIZE;
    *str = u64(m, lsh + 24);
    *strsz = u64(m, lsh + 32);
    return true;
}

static bool add_name(q7d_symbols *out, const char *s, size_t len, uint64_t offset, uint64_t size)
{
    char **grown = realloc(out->name, (out->count + 1) * sizeof *grown);
    if (grown) out->name = grown;
    unsigned long long *o = realloc(out->offset, (out->count + 1) * sizeof *o);
    if (o) out->offset = o;
    unsigned long long *z = realloc(out->size, (out->count + 1) * sizeof *z);
    if (z) out->size = z;
    if (!grown || !o || !z || !(out->name[out->count] = strndup(s, len))) return false;
    out->offset[out->count] = offset;
    out->size[out->count] = size;
    out->count++;
    return true;
}

/* The largest file read: far past any library of this ABI. */
#define MAX_FILE ((size_t)1 << 30)

/* The file whole, its size known first: only a regular file, opened
 * without blocking (a FIFO never blocks the probe), at most MAX_FILE. */
static bool read_whole(const char *path, image *m, char *err, size_t errsize)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return false;
    }
    const char *why = !S_ISREG(st.st_mode) ? "it is not a regular file"
                      : (unsigned long long)st.st_size > MAX_FILE ? "it is larger than 1 GiB" : NULL;
    unsigned char *buf = why ? NULL : malloc(st.st_size ? (size_t)st.st_size : 1);
    if (!why && !buf) why = "out of memory";
    size_t size = 0;
    while (!why && size < (size_t)st.st_size) {
        ssize_t got = read(fd, buf + size, (size_t)st.st_size - size);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) why = strerror(errno);
        else if (got == 0) why = "it ended before its size (it changed while read)";
        else size += (size_t)got;
    }
    close(fd);
    if (why) {
        free(buf);
        snprintf(err, errsize, "cannot read '%s': %s", path, why);
        return false;
    }
    m->p = buf;
    m->size = size;
    return true;
}

bool q7d_elf_symbols(const char *path, const char *prefix, q7d_symbols *out, char *err, size_t errsize)
{
    *out = (q7d_symbols){ 0 };
    image m;
    if (!read_whole(path, &m, err, errsize)) return false;
    bool ok = false;
    uint64_t sym = 0, nsym = 0, str = 0, strsz = 0;
    if (m.size < 64 || memcmp(m.p, "\177ELF", 4) != 0)
        snprintf(err, errsize, "'%s' is not an ELF file", path);
    else if (m.p[4] != 2 || m.p[5] != 1)
        snprintf(err, errsize, "'%s' is a %s %s-endian ELF file; the probe reads 64-bit little-endian ones only",
                 path, m.p[4] == 1 ? "32-bit" : m.p[4] == 2 ? "64-bit" : "unknown-class",
                 m.p[5] == 2 ? "big" : m.p[5] == 1 ? "little" : "unknown");
    else if (!from_dynamic(&m, &sym, &nsym, &str, &strsz) && !from_sections(&m, &sym, &nsym, &str, &strsz))
        snprintf(err, errsize, "'%s' has no dynamic symbol table", path);
    else if (!in_file(&m, sym, nsym * SYM_SIZE) || !in_file(&m, str, strsz))
        snprintf(err, errsize, "'%s': its dynamic symbol table points outside the file", path);
    else {
        ok = true;
        out->machine = u16(&m, 18);
        size_t plen = strlen(prefix);
        for (uint64_t i = 1; ok && i < nsym; i++) {
            uint64_t s = sym + i * SYM_SIZE;
            uint32_t name = u32(&m, s);
            unsigned bind = m.p[s + 4] >> 4, shndx = u16(&m, s + 6);
            if (shndx == 0 || (bind != STB_GLOBAL && bind != STB_WEAK) || name >= strsz) continue;
            const char *n = (const char *)m.p + str + name;
            size_t len = strnlen(n, strsz - name);
            uint64_t off = 0, value = u64(&m, s + 8), size = u64(&m, s + 16);
            if (!vaddr_offset(&m, value, &off) || !in_file(&m, off, size)) off = 0;
            if (len >= plen && memcmp(n, prefix, plen) == 0 && !add_name(out, n, len, off, size)) {
                snprintf(err, errsize, "out of memory");
                ok = false;
            }
        }
        if (!ok) q7d_symbols_free(out);
    }
    free((void *)m.p);
    return ok;
}

void q7d_symbols_free(q7d_symbols *s)
{
    for (size_t i = 0; i < s->count; i++) free(s->name[i]);
    free(s->name);
    free(s->offset);
    free(s->size);
    *s = (q7d_symbols){ 0 };
}
