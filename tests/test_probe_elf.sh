#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The probe's ELF reader against files an attacker would hand it: each is
# refused in one line naming the file and what is wrong with it (exit 2),
# or, where the file is a library after all, probed with the summary line
# (exit 1); never a crash, a hang or a wrong reading. The files are the
# built library cut or patched, and ELF files written by hand
# (tests/fuzz/elf_seeds.py, from the gABI): zero bytes, text, 32-bit,
# big-endian, cut short before its program headers or its dynamic section,
# symbol and string tables (or a name) past the end, 2^32-1 symbols, 65535
# program headers under 60000 names (each name's address looked up: a
# reader that walks every header per name takes minutes), more names than
# the reader takes, names of 100 KB, names the loader cannot find, no
# table at all, a symbolic link loop (probe, verify, call and bench).
# The hand-written tables read both ways (DT_HASH, DT_GNU_HASH): the
# unknown name listed, the leaves present.
set -u
. "$(dirname "$0")/support/check_lib.sh"
nleaves=$(grep -c '^LEAF(' "$SRCDIR/include/q7pred_leaves.def")
PY=/usr/bin/python3
seeds=$SRCDIR/tests/fuzz/elf_seeds.py
real=$(readlink -f "$Q7LIB")

# probe_of NAME FILE: the probe of FILE, within a guard far above its time
# (a hang fails; no timing is asserted); rc, out, err in $t/NAME.*
probe_of() {
    timeout 60 "$Q7PRED" probe --lib "$2" --timeout 10 >"$t/$1.out" 2>"$t/$1.err"
    echo $? >"$t/$1.rc"
}
# refused NAME FILE TEXT: exit 2, one line on stderr holding TEXT, no table
refused() {
    probe_of "$1" "$2"
    check "$1: refused (exit 2), one line: $3" \
        "[ \$(cat \"$t/$1.rc\") -eq 2 ] && [ \$(wc -l <\"$t/$1.err\") -eq 1 ] &&
         grep -qF -- \"$3\" \"$t/$1.err\" && [ ! -s \"$t/$1.out\" ]"
}
made() { "$PY" "$seeds" --one "$1" "$t/$1.so"; }

# ---- what the file check refuses before the reader runs
: >"$t/empty.so"
refused "zero bytes" "$t/empty.so" "'$t/empty.so': it is 0 bytes long, too short for an ELF header"
yes 'this is a text file, not a library' | head -n 20 >"$t/text.so"
refused "a text file" "$t/text.so" "'$t/text.so': it is not an ELF file (no ELF magic)"
"$PY" - "$real" "$t" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
c32 = bytearray(data); c32[4] = 1
open(sys.argv[2] + "/elf32.so", "wb").write(c32)
be = bytearray(data); be[5] = 2
open(sys.argv[2] + "/bigend.so", "wb").write(be)
PY
refused "a 32-bit ELF" "$t/elf32.so" "it is a 32-bit little-endian ELF file; this q7pred loads 64-bit little-endian ones"
refused "a big-endian ELF" "$t/bigend.so" "it is a 64-bit big-endian ELF file; this q7pred loads 64-bit little-endian ones"

# ---- the reader: files cut short
head -c 100 "$real" >"$t/cut100.so"
refused "cut in its program headers" "$t/cut100.so" "'$t/cut100.so' is cut short: its program headers"
# the dynamic section's offset and size, from the program headers (gABI)
read -r dyn_off dyn_size < <("$PY" - "$real" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
phoff, = struct.unpack_from("<Q", d, 32)
phent, phnum = struct.unpack_from("<HH", d, 54)
for i in range(phnum):
    p = struct.unpack_from("<IIQQQQQQ", d, phoff + i * phent)
    if p[0] == 2:
        print(p[2], p[5])
PY
)
head -c "$((dyn_off - 1))" "$real" >"$t/cutdyn.so"
refused "cut before its dynamic section" "$t/cutdyn.so" \
    "'$t/cutdyn.so' is cut short: its dynamic section ($dyn_size bytes at offset $dyn_off) runs past the end of the file ($((dyn_off - 1)) bytes)"

# ---- the reader: tables and counts that do not fit the file
for k in nchain-huge strsz-huge dynstr-past dynsym-past no-table too-many-names many-phdrs long-names \
         name-past gnu-hash-broken hash gnu-hash; do
    made "$k"
done
refused "2^32-1 symbols (DT_HASH)" "$t/nchain-huge.so" \
    "its dynamic symbol table (4294967295 symbols at offset"
refused "a string table past the end (DT_STRSZ)" "$t/strsz-huge.so" \
    "its dynamic string table (1152921504606846976 bytes at offset"
refused "a string table past the end (section header)" "$t/dynstr-past.so" \
    "its dynamic string table (85 bytes at offset 9223372036854775813) runs past the end of the file"
refused "a symbol table past the end (section header)" "$t/dynsym-past.so" \
    "its dynamic symbol table (5 symbols at offset"
refused "no dynamic symbol table" "$t/no-table.so" "'$t/no-table.so' has no dynamic symbol table"
refused "65537 names" "$t/too-many-names.so" \
    "has more than 65536 symbols named module__xdref_*; no library of this ABI has so many"
# 65535 headers: the reader is done at once; the loader then refuses the
# file (segments it cannot map), which is the line printed
probe_of many "$t/many-phdrs.so"
check "65535 program headers, 60000 names: ends (exit 2) with the loader's reason" \
    "[ \$(cat \"$t/many.rc\") -eq 2 ] && [ \$(wc -l <\"$t/many.err\") -eq 1 ] &&
     grep -qF \"cannot load library '$t/many-phdrs.so': \" \"$t/many.err\""

# ---- files the probe reads and probes
probe_of long "$t/long-names.so"
check "names of 100 KB: probed (exit 1), each unknown name on its line" \
    "[ \$(cat \"$t/long.rc\") -eq 1 ] && [ \$(grep -c '^unknown module__xdref_aaaa' \"$t/long.out\") -eq 200 ] &&
     tail -n 1 \"$t/long.out\" | grep -qx '$nleaves leaves: 0 confirmed, 0 refuted, $nleaves absent; 200 unknown symbols'"
probe_of namepast "$t/name-past.so"
check "names past the string table: not read as names (exit 1, none found)" \
    "[ \$(cat \"$t/namepast.rc\") -eq 1 ] &&
     tail -n 1 \"$t/namepast.out\" | grep -qx '$nleaves leaves: 0 confirmed, 0 refuted, $nleaves absent; 0 unknown symbols'"
probe_of broken "$t/gnu-hash-broken.so"
check "names the loader cannot find: absent, saying so" \
    "[ \$(cat \"$t/broken.rc\") -eq 1 ] &&
     grep -Eq '^lt_1_8_8 +absent .*in the dynamic symbol table, but the loader does not find the symbol \\(dlsym\\)' \"$t/broken.out\" &&
     tail -n 1 \"$t/broken.out\" | grep -qx '$nleaves leaves: 0 confirmed, 0 refuted, $nleaves absent; 1 unknown symbol'"
for k in hash gnu-hash; do
    probe_of "$k" "$t/$k.so"
    check "a table found through $k: the leaves present, the unknown name listed" \
        "[ \$(cat \"$t/$k.rc\") -eq 1 ] && grep -Eq '^lt_1_8_8 +refuted .*arg 4 \\(result\\) untouched' \"$t/$k.out\" &&
         grep -qx 'unknown module__xdref_zz_unknown' \"$t/$k.out\" &&
         tail -n 1 \"$t/$k.out\" | grep -qx '$nleaves leaves: 0 confirmed, 2 refuted, $((nleaves - 2)) absent; 1 unknown symbol'"
done

# ---- a symbolic link loop: every command that takes a library says so
ln -s "$t/loop2.so" "$t/loop1.so"
ln -s "$t/loop1.so" "$t/loop2.so"
for cmd in "probe --lib" "verify --oracles sem --corpus grid --leaf lt_1_8_8 --no-progress --lib" \
           "call --lib" "bench --quick --lib"; do
    extra=; [ "${cmd%% *}" = call ] && extra="lt_1_8_8 1 2"
    # shellcheck disable=SC2086
    timeout 30 "$Q7PRED" $cmd "$t/loop1.so" $extra >"$t/loop.out" 2>"$t/loop.err"; rc=$?
    check "a symlink loop: ${cmd%% *} refuses it (exit 2), saying why" \
        "[ $rc -eq 2 ] && [ \$(wc -l <\"$t/loop.err\") -eq 1 ] &&
         grep -qF \"'$t/loop1.so': Too many levels of symbolic links\" \"$t/loop.err\""
done
exit $fail
