/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's run-time version and soname, and which leaves fold.
 * - q7_version() of the shared library under test (dlopen'd, its own
 *   symbol) and of the static one equals this header's Q7PRED_VERSION;
 * - the shared library's DT_SONAME is libq7pred.so.<Q7PRED_SOVERSION>
 *   (read with dlinfo's link map: the name the loader recorded);
 * - q7_leaf_associative is true exactly for the leaves whose table
 *   semantics is q7_andb, q7_orb or q7_xorb (read from the row's text, not
 *   from the operation decoder it uses), with identities all ones, 0, 0,
 *   and false for NULL. */
#include <elf.h>
#include <link.h>
#include <string.h>

#include "check.h"
#include "q7pred.h"
#include "q7so.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *soname_of(void *h)
{
    struct link_map *map = NULL;
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) != 0 || !map) return NULL;
    const char *strtab = NULL;
    const ElfW(Dyn) *soname = NULL;
    for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_STRTAB) strtab = (const char *)d->d_un.d_ptr;
        if (d->d_tag == DT_SONAME) soname = d;
    }
    return strtab && soname ? strtab + soname->d_un.d_val : NULL;
}

int main(void)
{
    void *h = q7so_open();
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "q7_version");
    CHECK(version != NULL);
    if (version) {
        CHECK(strcmp(version(), Q7PRED_VERSION) == 0);
        printf("shared q7_version() = %s, header %s\n", version(), Q7PRED_VERSION);
    }
    CHECK(strcmp(q7_version(), Q7PRED_VERSION) == 0);

    const char *soname = soname_of(h);
    CHECK(soname && strcmp(soname, "libq7pred.so." STR(Q7PRED_SOVERSION)) == 0);
    printf("soname %s\n", soname ? soname : "(none)");

    static const struct { const char *fn; uint64_t identity; } folds[] = {
        { "q7_andb(", ~(uint64_t)0 }, { "q7_orb(", 0 }, { "q7_xorb(", 0 },
    };
    unsigned n = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        int want = -1;
        for (unsigned k = 0; k < 3; k++)
            if (strncmp(l->semantics, folds[k].fn, strlen(folds[k].fn)) == 0) want = (int)k;
        uint64_t id = 0x5555;
        bool got = q7_leaf_associative(l, &id);
        CHECK_EQF(got, want >= 0, "%s", l->suffix);
        if (want >= 0) CHECK_EQF(id, folds[want].identity, "%s", l->suffix);
        else CHECK_EQF(id, 0x5555, "%s: identity written", l->suffix);
        n += got;
    }
    CHECK_EQ(n, 3);
    CHECK(!q7_leaf_associative(NULL, NULL));
    CHECK(q7_leaf_associative(q7_leaf_find("xorb_64_64_64"), NULL));
    return check_status("test_library_version");
}
