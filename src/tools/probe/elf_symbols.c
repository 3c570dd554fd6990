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
#include "util/paths.h"

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

/* The loaded segments (PT_LOAD) of the file, sorted by address, so that
 * an address is found in log time however many program headers a file
 * claims (a file of 65535 headers and millions of symbols stays fast). */
typedef struct segment {
    uint64_t vaddr, filesz, offset;
} segment;

typedef struct segments {
    segment *s;
    size_t n;
} segments;

static int by_vaddr(const void *x, const void *y)
{
    const segment *a = x, *b = y;
    return a->vaddr < b->vaddr ? -1 : a->vaddr > b->vaddr;
}

/* false only when out of memory; a header outside the file is skipped. */
static bool load_segments(const image *m, segments *out)
{
    uint64_t phoff = u64(m, 32);
    unsigned phent = u16(m, 54), phnum = u16(m, 56);
    out->n = 0;
    out->s = malloc((phnum ? phnum : 1) * sizeof *out->s);
    if (!out->s) return false;
    for (unsigned i = 0; i < phnum; i++) {
        uint64_t ph = phoff + (uint64_t)i * phent;
        if (ph < phoff || !in_file(m, ph, 56) || u32(m, ph) != PT_LOAD) continue;
        out->s[out->n++] = (segment){ u64(m, ph + 16), u64(m, ph + 32), u64(m, ph + 8) };
    }
    qsort(out->s, out->n, sizeof *out->s, by_vaddr);
    return true;
}

/* A virtual address as a file offset: the segment with the highest start
 * at or below it must hold it (in a well-formed file segments do not
 * overlap); false if none does. */
static bool vaddr_offset(const segments *g, uint64_t vaddr, uint64_t *off)
{
    size_t lo = 0, hi = g->n;   /* the first segment starting above vaddr, in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->s[mid].vaddr <= vaddr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return false;
    const segment *s = &g->s[lo - 1];
    if (vaddr - s->vaddr >= s->filesz) return false;
    *off = s->offset + (vaddr - s->vaddr);
    return true;
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

/* Where .dynsym and .dynstr are, from the dynamic section. */
static bool from_dynamic(const image *m, const segments *g, uint64_t *sym, uint64_t *nsym, uint64_t *str, uint64_t *strsz)
{
    uint64_t phoff = u64(m, 32);
    unsigned phent = u16(m, 54), phnum = u16(m, 56);
    for (unsigned i = 0; i < phnum; i++) {
        uint64_t ph = phoff + (uint64_t)i * phent;
        if (!in_file(m, ph, 56) || u32(m, ph) != PT_DYNAMIC) continue;
        uint64_t d = u64(m, ph + 8), dsz = u64(m, ph + 32);
        uint64_t symva = 0, strva = 0, hashva = 0, gnuva = 0;
        *strsz = 0;
        for (uint64_t o = d; o - d <= dsz && dsz - (o - d) >= 16 && in_file(m, o, 16); o += 16) {
            uint64_t tag = u64(m, o), val = u64(m, o + 8);
            if (tag == DT_NULL) break;
            if (tag == DT_SYMTAB) symva = val;
            else if (tag == DT_STRTAB) strva = val;
            else if (tag == DT_STRSZ) *strsz = val;
            else if (tag == DT_HASH) hashva = val;
            else if (tag == DT_GNU_HASH) gnuva = val;
        }
        uint64_t h;
        if (!symva || !strva || !vaddr_offset(g, symva, sym) || !vaddr_offset(g, strva, str)) return false;
        if (hashva && vaddr_offset(g, hashva, &h) && in_file(m, h, 8)) *nsym = u32(m, h + 4);
        else if (!(gnuva && vaddr_offset(g, gnuva, &h) && gnu_hash_count(m, h, nsym))) return false;
        return true;
    }
    return false;
}

/* Whether the file's dynamic section lies past its end (the file was cut
 * short): its offset and size into *off, *size. */
static bool dynamic_past_end(const image *m, uint64_t *off, uint64_t *size)
{
    uint64_t phoff = u64(m, 32);
    unsigned phent = u16(m, 54), phnum = u16(m, 56);
    for (unsigned i = 0; i < phnum; i++) {
        uint64_t ph = phoff + (uint64_t)i * phent;
        if (ph < phoff || !in_file(m, ph, 56) || u32(m, ph) != PT_DYNAMIC) continue;
        *off = u64(m, ph + 8);
        *size = u64(m, ph + 32);
        return !in_file(m, *off, *size);
    }
    return false;
}

/* The same from the section headers (a file whose dynamic section says too little). */
static bool from_sections(const image *m, uint64_t *sym, uint64_t *nsym, uint64_t *str, uint64_t *strsz)
{
    uint64_t shoff = u64(m, 40);
    unsigned shent = u16(m, 58), shnum = u16(m, 60);
    for (unsigned i = 0; i < shnum; i++) {
        uint64_t sh = shoff + (uint64_t)i * shent;
        if (!in_file(m, sh, 64) || u32(m, sh + 4) != SHT_DYNSYM) continue;
        uint32_t link = u32(m, sh + 40);
        uint64_t lsh = shoff + (uint64_t)link * shent;
        if (link >= shnum || !in_file(m, lsh, 64)) return false;
        *sym = u64(m, sh + 24);
        *nsym = u64(m, sh + 32) / SYM_SIZE;
        *str = u64(m, lsh + 24);
        *strsz = u64(m, lsh + 32);
        return true;
    }
    return false;
}

/* One more name, the arrays grown by half as much again as they hold. */
static bool add_name(q7p_symbols *out, size_t *room, const char *s, size_t len, uint64_t offset, uint64_t size)
{
    if (out->count == *room) {
        size_t n = *room ? *room + *room / 2 : 16;
        char **grown = realloc(out->name, n * sizeof *grown);
        if (grown) out->name = grown;
        unsigned long long *o = realloc(out->offset, n * sizeof *o);
        if (o) out->offset = o;
        unsigned long long *z = realloc(out->size, n * sizeof *z);
        if (z) out->size = z;
        if (!grown || !o || !z) return false;
        *room = n;
    }
    if (!(out->name[out->count] = strndup(s, len))) return false;
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
    char cannot[160];
    struct stat st;
    int fd = q7u_open_regular_stat(path, &st, cannot, sizeof cannot);
    if (fd < 0) {
        snprintf(err, errsize, "cannot read '%s': %s", path, cannot);
        return false;
    }
    const char *why = (unsigned long long)st.st_size > MAX_FILE ? "it is larger than 1 GiB" : NULL;
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

bool q7p_elf_symbols_image(const char *path, const void *data, size_t size, const char *prefix, q7p_symbols *out,
                           char *err, size_t errsize)
{
    *out = (q7p_symbols){ 0 };
    const image m = { data, size };
    segments g = { 0 };
    bool ok = false;
    uint64_t sym = 0, nsym = 0, str = 0, strsz = 0;
    if (m.size < 64 || memcmp(m.p, "\177ELF", 4) != 0)
        snprintf(err, errsize, "'%s' is not an ELF file", path);
    else if (m.p[4] != 2 || m.p[5] != 1)
        snprintf(err, errsize, "'%s' is a %s %s-endian ELF file; q7pred reads 64-bit little-endian ones only",
                 path, m.p[4] == 1 ? "32-bit" : m.p[4] == 2 ? "64-bit" : "unknown-class",
                 m.p[5] == 2 ? "big" : m.p[5] == 1 ? "little" : "unknown");
    else if (!load_segments(&m, &g))
        snprintf(err, errsize, "out of memory");
    else if (!from_dynamic(&m, &g, &sym, &nsym, &str, &strsz) && !from_sections(&m, &sym, &nsym, &str, &strsz)) {
        uint64_t doff, dsize, phoff = u64(&m, 32), phnum = u16(&m, 56);
        if (!in_file(&m, phoff, phnum * u16(&m, 54)))
            snprintf(err, errsize,
                     "'%s' is cut short: its program headers (%llu at offset %llu) run past the end of the file "
                     "(%zu bytes)", path, (unsigned long long)phnum, (unsigned long long)phoff, m.size);
        else if (dynamic_past_end(&m, &doff, &dsize))
            snprintf(err, errsize,
                     "'%s' is cut short: its dynamic section (%llu bytes at offset %llu) runs past the end of the "
                     "file (%zu bytes)", path, (unsigned long long)dsize, (unsigned long long)doff, m.size);
        else snprintf(err, errsize, "'%s' has no dynamic symbol table", path);
    }
    else if (nsym > m.size / SYM_SIZE || !in_file(&m, sym, nsym * SYM_SIZE))
        snprintf(err, errsize,
                 "'%s': its dynamic symbol table (%llu symbols at offset %llu) runs past the end of the file "
                 "(%zu bytes)", path, (unsigned long long)nsym, (unsigned long long)sym, m.size);
    else if (!in_file(&m, str, strsz))
        snprintf(err, errsize,
                 "'%s': its dynamic string table (%llu bytes at offset %llu) runs past the end of the file "
                 "(%zu bytes)", path, (unsigned long long)strsz, (unsigned long long)str, m.size);
    else {
        ok = true;
        out->machine = u16(&m, 18);
        size_t plen = strlen(prefix), room = 0;
        for (uint64_t i = 1; ok && i < nsym; i++) {
            uint64_t s = sym + i * SYM_SIZE;
            uint32_t name = u32(&m, s);
            unsigned bind = m.p[s + 4] >> 4, shndx = u16(&m, s + 6);
            if (shndx == 0 || (bind != STB_GLOBAL && bind != STB_WEAK) || name >= strsz) continue;
            const char *n = (const char *)m.p + str + name;
            size_t len = strnlen(n, strsz - name);
            if (len < plen || memcmp(n, prefix, plen) != 0) continue;
            if (out->count == Q7P_ELF_MAX_NAMES) {
                snprintf(err, errsize, "'%s' has more than %d symbols named %s*; no library of this ABI has so many",
                         path, Q7P_ELF_MAX_NAMES, prefix);
                ok = false;
                break;
            }
            uint64_t off = 0, value = u64(&m, s + 8), bytes = u64(&m, s + 16);
            if (!vaddr_offset(&g, value, &off) || !in_file(&m, off, bytes)) off = 0;
            if (!add_name(out, &room, n, len, off, bytes)) {
                snprintf(err, errsize, "out of memory");
                ok = false;
            }
        }
        if (!ok) q7p_symbols_free(out);
    }
    free(g.s);
    return ok;
}

bool q7p_elf_symbols(const char *path, const char *prefix, q7p_symbols *out, char *err, size_t errsize)
{
    *out = (q7p_symbols){ 0 };
    image m;
    if (!read_whole(path, &m, err, errsize)) return false;
    bool ok = q7p_elf_symbols_image(path, m.p, m.size, prefix, out, err, errsize);
    free((void *)m.p);
    return ok;
}

void q7p_symbols_free(q7p_symbols *s)
{
    for (size_t i = 0; i < s->count; i++) free(s->name[i]);
    free(s->name);
    free(s->offset);
    free(s->size);
    *s = (q7p_symbols){ 0 };
}
