/* SPDX-License-Identifier: BSD-3-Clause */
/* The identity of a file (file_identity.h): its bytes hashed as they are
 * read, then its ELF program headers read again with pread, every offset
 * and count checked against the file's size. */
#include "file_identity.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void q7u_utc_iso8601(int64_t t, char buf[32])
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!gmtime_r(&tt, &tm) || strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) snprintf(buf, 32, "unknown");
}

/* ------------------------------------------------------------ ELF */

/* An open ELF file: its class and byte order decide every field read. */
typedef struct elf {
    int fd;
    uint64_t size;
    bool is64, big;
} elf;

enum { PT_LOAD = 1, PT_DYNAMIC = 2, PT_NOTE = 4, DT_NULL = 0, DT_STRTAB = 5, DT_SONAME = 14,
       NT_GNU_BUILD_ID = 3, MAX_ENTRIES = 4096, MAX_NOTES = 1 << 20 };

/* An unsigned field of `len` bytes (1..8) at `off`; false past the end. */
static bool field(const elf *e, uint64_t off, unsigned len, uint64_t *v)
{
    unsigned char b[8];
    if (off > e->size || len > e->size - off || pread(e->fd, b, len, (off_t)off) != (ssize_t)len) return false;
    *v = 0;
    for (unsigned i = 0; i < len; i++) *v |= (uint64_t)b[e->big ? len - 1 - i : i] << (8 * i);
    return true;
}

/* A word of the file's class: 8 bytes in ELF64, 4 in ELF32. */
static bool addr(const elf *e, uint64_t off, uint64_t *v) { return field(e, off, e->is64 ? 8 : 4, v); }

/* Program header i: its type, file offset, virtual address and size. */
typedef struct segment { uint64_t type, offset, vaddr, filesz, align; } segment;

static bool segment_at(const elf *e, uint64_t phoff, uint64_t phent, uint64_t i, segment *s)
{
    uint64_t p = phoff + i * phent;
    if (e->is64)
        return field(e, p, 4, &s->type) && field(e, p + 8, 8, &s->offset) && field(e, p + 16, 8, &s->vaddr)
               && field(e, p + 32, 8, &s->filesz) && field(e, p + 48, 8, &s->align);
    return field(e, p, 4, &s->type) && field(e, p + 4, 4, &s->offset) && field(e, p + 8, 4, &s->vaddr)
           && field(e, p + 16, 4, &s->filesz) && field(e, p + 28, 4, &s->align);
}

typedef struct headers { uint64_t phoff, phent, phnum; } headers;

static bool read_headers(elf *e, headers *h)
{
    unsigned char id[16];
    if (pread(e->fd, id, sizeof id, 0) != (ssize_t)sizeof id || memcmp(id, "\177ELF", 4) != 0) return false;
    if ((id[4] != 1 && id[4] != 2) || (id[5] != 1 && id[5] != 2)) return false;
    e->is64 = id[4] == 2;
    e->big = id[5] == 2;
    return e->is64 ? addr(e, 32, &h->phoff) && field(e, 54, 2, &h->phent) && field(e, 56, 2, &h->phnum)
                   : addr(e, 28, &h->phoff) && field(e, 42, 2, &h->phent) && field(e, 44, 2, &h->phnum);
}

/* A virtual address as a file offset, through the loaded segments. */
static bool vaddr_to_offset(const elf *e, const headers *h, uint64_t va, uint64_t *off)
{
    segment s;
    for (uint64_t i = 0; i < h->phnum; i++)
        if (segment_at(e, h->phoff, h->phent, i, &s) && s.type == PT_LOAD && va >= s.vaddr && va - s.vaddr < s.filesz) {
            *off = s.offset + (va - s.vaddr);
            return true;
        }
    return false;
}

/* The NUL-terminated string at off, "" unless its NUL is in the file
 * within size - 1 bytes. */
static void string_at(const elf *e, uint64_t off, char *buf, size_t size)
{
    size_t n = 0;
    uint64_t c = 1;
    while (n + 1 < size && field(e, off + n, 1, &c) && c != 0) buf[n++] = (char)c;
    buf[c == 0 ? n : 0] = '\0';
}

/* DT_SONAME of the dynamic segment s. */
static void find_soname(const elf *e, const headers *h, const segment *s, char *soname, size_t size)
{
    unsigned w = e->is64 ? 8 : 4;
    uint64_t strtab = 0, name = 0, tag, val;
    bool named = false;
    for (uint64_t i = 0; i < MAX_ENTRIES && (i + 1) * 2 * w <= s->filesz; i++) {
        if (!addr(e, s->offset + i * 2 * w, &tag) || !addr(e, s->offset + i * 2 * w + w, &val) || tag == DT_NULL)
            break;
        if (tag == DT_STRTAB) strtab = val;
        if (tag == DT_SONAME) name = val, named = true;
    }
    uint64_t off;
    if (named && strtab && vaddr_to_offset(e, h, strtab, &off) && name <= UINT64_MAX - off)
        string_at(e, off + name, soname, size);
}

/* The GNU build-id among the notes of segment s, as hex. */
static void find_build_id(const elf *e, const segment *s, char *hex, size_t size)
{
    uint64_t align = s->align == 8 ? 8 : 4, end = s->filesz < MAX_NOTES ? s->filesz : MAX_NOTES;
    uint64_t at = 0, namesz, descsz, type;
    while (at + 12 <= end && field(e, s->offset + at, 4, &namesz) && field(e, s->offset + at + 4, 4, &descsz)
           && field(e, s->offset + at + 8, 4, &type)) {
        uint64_t name = at + 12, desc = name + (namesz + align - 1) / align * align;
        char owner[5] = "";
        if (namesz == 4) string_at(e, s->offset + name, owner, sizeof owner);
        if (type == NT_GNU_BUILD_ID && namesz == 4 && strcmp(owner, "GNU") == 0 && descsz * 2 < size && desc + descsz <= end) {
            uint64_t b;
            for (uint64_t i = 0; i < descsz && field(e, s->offset + desc + i, 1, &b); i++)
                snprintf(hex + 2 * i, 3, "%02x", (unsigned)b);
            return;
        }
        at = desc + (descsz + align - 1) / align * align;
    }
}

static void read_elf(int fd, uint64_t size, file_identity *id)
{
    elf e = { fd, size, false, false };
    headers h;
    if (!read_headers(&e, &h) || h.phent < (e.is64 ? 56u : 32u) || h.phnum > MAX_ENTRIES) return;
    segment s;
    for (uint64_t i = 0; i < h.phnum; i++) {
        if (!segment_at(&e, h.phoff, h.phent, i, &s)) return;
        if (s.type == PT_DYNAMIC && !id->soname[0]) find_soname(&e, &h, &s, id->soname, sizeof id->soname);
        if (s.type == PT_NOTE && !id->build_id[0]) find_build_id(&e, &s, id->build_id, sizeof id->build_id);
    }
}

/* ------------------------------------------------------------ the file */

static bool hash_all(int fd, char *hex, uint64_t *size)
{
    sha256_ctx c;
    q7u_sha256_init(&c);
    unsigned char buf[1 << 16];
    *size = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) break;
        q7u_sha256_update(&c, buf, (size_t)n);
        *size += (uint64_t)n;
    }
    q7u_sha256_final_hex(&c, hex);
    return true;
}

bool q7u_file_identity_of(const char *path, file_identity *id, char *err, size_t errsize)
{
    memset(id, 0, sizeof *id);
    char why[160];
    struct stat sb;
    int fd = q7u_open_regular_stat(path, &sb, why, sizeof why);
    if (fd < 0) {
        snprintf(err, errsize, "cannot identify '%s': %s", path, why);
        return false;
    }
    char real[PATH_MAX];
    snprintf(id->path, sizeof id->path, "%.*s", (int)sizeof id->path - 1, realpath(path, real) ? real : path);
    q7u_utc_iso8601((int64_t)sb.st_mtime, id->mtime);
    bool ok = hash_all(fd, id->sha256, &id->size);
    if (!ok) snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
    else read_elf(fd, id->size, id);
    close(fd);
    return ok;
}
