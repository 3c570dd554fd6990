/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The identity of a file (src/tools/util/file_identity.h) and SHA-256:
 * - SHA-256 of FIPS 180-4's examples (and the NIST test vectors of the
 *   empty message and a million 'a'), fed whole and in odd pieces;
 * - an ELF file written here byte by byte as the ELF specification lays
 *   it out (64-bit little-endian and 32-bit big-endian, a PT_LOAD, a
 *   PT_DYNAMIC with DT_STRTAB and DT_SONAME, a PT_NOTE with the GNU
 *   build-id) gives its SONAME and build-id; every prefix of it, a file
 *   that is not ELF and one whose headers point past its end are still
 *   identified (size, SHA-256), with no SONAME or build-id they do not
 *   hold whole; a directory and a missing file are refused with the reason.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util/file_identity.h"

static void hex_of(const void *data, size_t n, size_t piece, char hex[SHA256_HEX_SIZE])
{
    sha256_ctx c;
    q7u_sha256_init(&c);
    for (size_t at = 0; at < n; at += piece)
        q7u_sha256_update(&c, (const char *)data + at, n - at < piece ? n - at : piece);
    q7u_sha256_final_hex(&c, hex);
}

static void check_sha256(void)
{
    static const struct { const char *msg, *hex; } v[] = {
        { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    };
    char hex[SHA256_HEX_SIZE];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        for (size_t piece = 1; piece <= 64; piece += 21) {
            hex_of(v[i].msg, strlen(v[i].msg), piece, hex);
            CHECK(strcmp(hex, v[i].hex) == 0);
        }
    char *a = malloc(1000000);
    CHECK(a != NULL);
    if (!a) return;
    memset(a, 'a', 1000000);
    hex_of(a, 1000000, 4099, hex);
    CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
    CHECK(q7u_sha256_hex_valid(hex));
    hex[3] = 'A';
    CHECK(!q7u_sha256_hex_valid(hex));
    free(a);
}

/* ------------------------------------------------------------ an ELF file, by hand */

typedef struct image { unsigned char b[1024]; bool is64, big; } image;

static void put(image *m, size_t off, unsigned len, uint64_t v)
{
    for (unsigned i = 0; i < len; i++) m->b[off + (m->big ? len - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

enum { VBASE = 0x10000, STR = 400, DYN = 500, NOTE = 600, SIZE = 700 };
static const unsigned char build_id[] = { 0xde, 0xad, 0xbe, 0xef, 0x01, 0x23 };

/* The ELF header, three program headers (PT_LOAD of the whole file,
 * PT_DYNAMIC, PT_NOTE), a string table, the dynamic section, the note. */
static void make_elf(image *m, bool is64, bool big)
{
    memset(m, 0, sizeof *m);
    m->is64 = is64;
    m->big = big;
    memcpy(m->b, "\177ELF", 4);
    m->b[4] = is64 ? 2 : 1;
    m->b[5] = big ? 2 : 1;
    m->b[6] = 1;
    unsigned w = is64 ? 8 : 4, phoff = is64 ? 64 : 52, phent = is64 ? 56 : 32;
    put(m, 16, 2, 3);                                  /* ET_DYN */
    put(m, 18, 2, is64 ? 62 : 3);
    put(m, 20, 4, 1);
    put(m, is64 ? 32 : 28, w, phoff);                  /* e_phoff */
    put(m, is64 ? 52 : 40, 2, is64 ? 64 : 52);         /* e_ehsize */
    put(m, is64 ? 54 : 42, 2, phent);
    put(m, is64 ? 56 : 44, 2, 3);                      /* e_phnum */
    const uint64_t seg[3][5] = {                        /* type, offset, vaddr, filesz, align */
        { 1, 0, VBASE, SIZE, 0x1000 }, { 2, DYN, VBASE + DYN, 3 * 2 * w, 8 }, { 4, NOTE, VBASE + NOTE, 24, 4 },
    };
    for (unsigned i = 0; i < 3; i++) {
        size_t p = phoff + i * phent;
        put(m, p, 4, seg[i][0]);
        if (is64) {
            put(m, p + 8, 8, seg[i][1]);
            put(m, p + 16, 8, seg[i][2]);
            put(m, p + 32, 8, seg[i][3]);
            put(m, p + 40, 8, seg[i][3]);
            put(m, p + 48, 8, seg[i][4]);
        } else {
            put(m, p + 4, 4, seg[i][1]);
            put(m, p + 8, 4, seg[i][2]);
            put(m, p + 16, 4, seg[i][3]);
            put(m, p + 20, 4, seg[i][3]);
            put(m, p + 28, 4, seg[i][4]);
        }
    }
    memcpy(m->b + STR, "\0libvendor.so.7", 16);
    const uint64_t dyn[3][2] = { { 5, VBASE + STR }, { 14, 1 }, { 0, 0 } };   /* DT_STRTAB, DT_SONAME, DT_NULL */
    for (unsigned i = 0; i < 3; i++) {
        put(m, DYN + i * 2 * w, w, dyn[i][0]);
        put(m, DYN + i * 2 * w + w, w, dyn[i][1]);
    }
    put(m, NOTE, 4, 4);
    put(m, NOTE + 4, 4, sizeof build_id);
    put(m, NOTE + 8, 4, 3);                            /* NT_GNU_BUILD_ID */
    memcpy(m->b + NOTE + 12, "GNU", 4);
    memcpy(m->b + NOTE + 16, build_id, sizeof build_id);
}

static char dir[] = "/tmp/q7_file_identity_XXXXXX";

static bool identify(const unsigned char *bytes, size_t n, file_identity *id)
{
    char path[600], err[800];
    snprintf(path, sizeof path, "%s/f.so", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fwrite(bytes, 1, n, f);
    fclose(f);
    bool ok = q7u_file_identity_of(path, id, err, sizeof err);
    unlink(path);
    return ok;
}

static void check_elf(bool is64, bool big)
{
    image m;
    make_elf(&m, is64, big);
    file_identity id;
    char hex[SHA256_HEX_SIZE];
    CHECK(identify(m.b, SIZE, &id));
    CHECK(strcmp(id.soname, "libvendor.so.7") == 0);
    CHECK(strcmp(id.build_id, "deadbeef0123") == 0);
    CHECK_EQ(id.size, SIZE);
    hex_of(m.b, SIZE, 64, hex);
    CHECK(strcmp(id.sha256, hex) == 0);
    CHECK(strlen(id.mtime) == 20 && id.mtime[10] == 'T' && id.mtime[19] == 'Z');
    /* every prefix: identified, and nothing read from past its end */
    for (size_t n = 0; n < SIZE; n += 7) {
        CHECK(identify(m.b, n, &id));
        CHECK_EQ(id.size, n);
        CHECK(id.soname[0] == '\0' || n > STR + 15);
        CHECK(id.build_id[0] == '\0' || n >= NOTE + 16 + sizeof build_id);
    }
    /* a dynamic section pointing far past the end */
    make_elf(&m, is64, big);
    put(&m, DYN + (is64 ? 8 : 4), is64 ? 8 : 4, is64 ? 0xffffffffffff0000ull : 0xffff0000u);
    CHECK(identify(m.b, SIZE, &id));
    CHECK(id.soname[0] == '\0');
    /* a note whose sizes lie */
    make_elf(&m, is64, big);
    put(&m, NOTE + 4, 4, 0xfffffff0u);
    CHECK(identify(m.b, SIZE, &id));
    CHECK(id.build_id[0] == '\0');
}

int main(void)
{
    check_sha256();
    CHECK(mkdtemp(dir) != NULL);
    check_elf(true, false);
    check_elf(false, true);
    check_elf(true, true);
    check_elf(false, false);
    file_identity id;
    CHECK(identify((const unsigned char *)"not ELF at all\n", 15, &id));
    CHECK(id.soname[0] == '\0' && id.build_id[0] == '\0' && id.size == 15);
    char err[800] = "";
    CHECK(!q7u_file_identity_of(dir, &id, err, sizeof err));
    CHECK(strstr(err, "Is a directory") != NULL);
    CHECK(!q7u_file_identity_of("/nonexistent/q7/x.so", &id, err, sizeof err));
    CHECK(strstr(err, "No such file or directory") != NULL);
    rmdir(dir);
    return check_status("file_identity");
}
