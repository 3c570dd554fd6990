/* SPDX-License-Identifier: BSD-3-Clause */
/* probe --disasm (probe_disasm.h). Built with capstone when mk/capstone.mk
 * finds it; without it the option says it is unavailable. */
#include <stdlib.h>
#include <string.h>

#include "probe_disasm.h"

#if defined(Q7_HAVE_CAPSTONE)
#include <capstone/capstone.h>

#include "util/paths.h"

bool cli_disasm_available(void) { return true; }

/* An AT&T instruction stores when its last operand is memory and it writes
 * it (compares and tests only read theirs). */
static bool is_store(const cs_insn *in, const char **dest)
{
    static const char *const readers[] = { "cmp", "test", "bt", "prefetch", "nop", "j", "call", "push", "lea" };
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (!strncmp(in->mnemonic, readers[i], strlen(readers[i]))) return false;
    const char *last = strrchr(in->op_str, ',');
    *dest = last ? last + 1 : in->op_str;
    while (**dest == ' ') (*dest)++;
    return strchr(*dest, '(') != NULL;
}

void cli_disasm_stores(FILE *out, const char *path, unsigned long long offset, unsigned long long size)
{
    char why[160];
    FILE *f = q7u_fopen_regular(path, why, sizeof why);
    unsigned char hdr[20], *code = NULL;
    if (size > 65536) size = 65536;
    bool ok = f && fread(hdr, 1, sizeof hdr, f) == sizeof hdr && offset && size && (code = malloc(size)) &&
              fseek(f, (long)offset, SEEK_SET) == 0 && fread(code, 1, size, f) == size;
    if (f) fclose(f);
    if (!ok || (hdr[18] | hdr[19] << 8) != 62) {   /* EM_X86_64 */
        fprintf(out, "    (no disassembly: %s)\n", !ok ? "its bytes are not in the file" : "not x86-64 code");
        free(code);
        return;
    }
    csh h;
    cs_insn *insn;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) {
        fprintf(out, "    (no disassembly: capstone cannot open x86-64)\n");
        free(code);
        return;
    }
    cs_option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
    size_t n = cs_disasm(h, code, size, offset, 0, &insn);
    unsigned stores = 0;
    for (size_t i = 0; i < n; i++) {
        const char *dest;
        if (!is_store(&insn[i], &dest)) continue;
        const char *open = strchr(dest, '(');
        size_t len = strcspn(open + 1, ",)");
        fprintf(out, "    store via (%.*s): %s %s\n", (int)len, open + 1, insn[i].mnemonic, insn[i].op_str);
        stores++;
    }
    if (!stores) fprintf(out, "    (no stores in %zu instructions)\n", n);
    if (n) cs_free(insn, n);
    cs_close(&h);
    free(code);
}

#else

bool cli_disasm_available(void) { return false; }

void cli_disasm_stores(FILE *out, const char *path, unsigned long long offset, unsigned long long size)
{
    (void)out, (void)path, (void)offset, (void)size;
}

#endif
