#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `make install PREFIX=<tmp>`, then a small C program built against the
# installed copy with pkg-config (PKG_CONFIG_PATH=<tmp>/lib/pkgconfig),
# linked shared and static, run; and every subcommand of the installed CLI
# run from the prefix, each finding its files there (the numpy oracle, the
# bench's scripts, its library), not in the source tree it was built from.
# slow: an install and a program built against it (about 8 s)
set -euo pipefail
cd "$SRCDIR"
. tests/support/spec_leaves.sh
command -v pkg-config >/dev/null || {
    echo "FAIL: pkg-config is not installed (apt-get install pkg-config; .ci/run does)" >&2; exit 1; }
CC=${CC:-cc}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

# A sub-make of its own: not part of the make that runs the tests.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory BUILD="${BUILD:-build}" \
    PREFIX="$prefix" install >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
# the libraries, the CLI, the numpy oracle it runs, the man page, and every header and
# .def table of include/ (the headers include the tables), the four headers
# named so that a header dropped from the tree too is still missed
for f in lib/libq7pred.so lib/libq7pred.a bin/q7pred lib/pkgconfig/q7pred.pc \
         share/q7pred/numpy_oracle.py share/q7pred/bench/numpy_bench.py share/q7pred/bench/ctypes_bench.py \
         share/q7pred/bench/ufunc_bench.py share/man/man1/q7pred.1 include/q7pred.h include/q7pred_xdref.h \
         include/q7pred_batch.h include/q7pred_vec.h $(cd "$SRCDIR" && ls include/*.h include/*.def); do
    [ -e "$prefix/$f" ] || { echo "FAIL: make install did not install $f" >&2; exit 1; }
done

# the licence: the file, and in q7pred.pc
[ -f "$prefix/share/doc/q7pred/LICENSE" ] && grep -q '^BSD 3-Clause License' "$prefix/share/doc/q7pred/LICENSE" || {
    echo "FAIL: make install did not install the BSD 3-Clause LICENSE" >&2; exit 1; }
grep -qx 'License: BSD-3-Clause' "$prefix/lib/pkgconfig/q7pred.pc" || {
    echo "FAIL: q7pred.pc does not say License: BSD-3-Clause" >&2; exit 1; }
# the soname's file and the unversioned link
[ -f "$prefix/lib/libq7pred.so.0" ] && [ "$(readlink "$prefix/lib/libq7pred.so")" = libq7pred.so.0 ] || {
    echo "FAIL: lib/libq7pred.so is not the link to lib/libq7pred.so.0" >&2; exit 1; }

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pkg-config --exists q7pred || { echo "FAIL: pkg-config does not find q7pred" >&2; exit 1; }
[ "$(pkg-config --modversion q7pred)" = "$("$prefix/bin/q7pred" --version | cut -d' ' -f2)" ] || {
    echo "FAIL: q7pred.pc version differs from q7pred --version" >&2; exit 1; }

# Values from the spec: §10 and TABLES.md §4.5, through the clean API, the
# ABI and the registry.
cat > "$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <q7pred.h>
#include <q7pred_batch.h>
#include <q7pred_vec.h>
#include <q7pred_xdref.h>

int main(void)
{
    uint32_t aux = 7, r = 7, u = 7;
    module__xdref_olt_1_1_16f_16f(NULL, 0xc000, 0x3c00, &aux, &r);
    module__xdref_ltu_2_16_16(NULL, 0x8000, 0x0001, &u);
    const q7_leaf *l = q7_leaf_find("clsfy_16f_16f");
    uint32_t in[Q7_MAX_WORDS] = { 0x7c01 }, out[Q7_MAX_WORDS] = { 0 };
    if (l) l->eval(in, out);
    printf("%d %u %u %u 0x%02x 0x%02x %zu\n", q7_f16_lt(0xc000, 0x3c00), r, aux, u,
           q7_f16_classify(0x7e00), out[0], q7_leaf_count());
    return 0;
}
EOF
want="1 1 0 0 0x20 0x60 $SPEC_LEAF_COUNT"
# shellcheck disable=SC2046
$CC -std=c11 -Wall -Wextra -Werror -o "$tmp/prog" "$tmp/prog.c" $(pkg-config --cflags --libs q7pred) \
    -Wl,-rpath,"$prefix/lib"
got=$("$tmp/prog")
[ "$got" = "$want" ] || { echo "FAIL: shared: got '$got', want '$want'" >&2; exit 1; }
# grep reads all of ldd's output: with -q it may exit first, and under
# pipefail ldd's SIGPIPE would fail the check.
ldd "$tmp/prog" | grep "$prefix/lib/libq7pred.so" >/dev/null || {
    echo "FAIL: prog is not linked against the installed libq7pred.so" >&2; ldd "$tmp/prog"; exit 1; }
echo "shared: $got"

# shellcheck disable=SC2046
$CC -std=c11 -Wall -Wextra -Werror -o "$tmp/prog-static" "$tmp/prog.c" $(pkg-config --cflags q7pred) \
    "$prefix/lib/libq7pred.a" $(pkg-config --libs-only-other --static q7pred)
got=$("$tmp/prog-static")
[ "$got" = "$want" ] || { echo "FAIL: static: got '$got', want '$want'" >&2; exit 1; }
echo "static: $got"

# ---- every subcommand from the prefix, in a folder of its own
q=$prefix/bin/q7pred
cd "$tmp"
fails=0
bad() { echo "FAIL: the installed $*" >&2; fails=$((fails + 1)); }
"$q" call lt_2_16_16 0x8000 1 | grep -x 'result = 0x3' >/dev/null || bad "q7pred call"
"$q" call --lib "$prefix/lib/libq7pred.so" lt_2_16_16 0x8000 1 | grep -x 'result = 0x3' >/dev/null || bad "call --lib"
[ "$("$q" list --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["count"])')" = \
  "$(grep -c '^LEAF(' "$SRCDIR/include/q7pred_leaves.def")" ] || bad "list"
"$q" demo >demo.txt || bad "demo"
ex=$SRCDIR/examples/nan_split
"$q" exec "$ex.q7" 2>/dev/null | cmp -s - "$ex.expected" || bad "exec"
# verify with the default oracles: the numpy oracle's program is the prefix's
"$q" verify --corpus grid --leaf olt_1_1_16f_16f --no-progress --shard 1/2 --json s1.json >v1.txt || bad "verify: $(tail -1 v1.txt)"
grep -q "^  numpy: [^ ]* $prefix/bin/../share/q7pred/numpy_oracle.py (interpreter: " v1.txt ||
    bad "verify: the numpy oracle is not the prefix's: $(grep numpy: v1.txt)"
"$q" verify --corpus grid --leaf olt_1_1_16f_16f --no-progress --shard 2/2 --json s2.json >/dev/null || bad "verify 2/2"
"$q" merge s1.json s2.json --quiet | grep -q '^PASS' || bad "merge"
"$q" verify --lib "$prefix/lib/libq7pred.so" --oracles sem --corpus grid --no-progress --quiet | grep -q '^PASS' ||
    bad "verify --lib"
"$q" probe --lib "$prefix/lib/libq7pred.so" --json probe.json >probe.txt || bad "probe: $(tail -1 probe.txt)"
"$q" probe --lib "$prefix/lib/libq7pred.so" --disasm --leaf olt_1_1_16f_16f >disasm.txt 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'store via' disasm.txt || { [ $rc -eq 2 ] && grep -q 'built without capstone' disasm.txt; } ||
    bad "probe --disasm: exit $rc, $(tail -1 disasm.txt)"
"$q" verify --lib "$prefix/lib/libq7pred.so" --abi probe.json --oracles sem --corpus grid --no-progress --quiet |
    grep -q '^PASS' || bad "verify --abi"
# bench: its library and its scripts are the prefix's (it looked beside
# the executable for the library before, which only the build tree has)
"$q" bench --quick --json bench.json >bench.txt 2>bench.err || bad "bench: $(tail -3 bench.err)"
"$PYTHON" - bench.json "$prefix" <<'PY' || bad "bench: its files are not the prefix's"
import json, os, sys
d, prefix = json.load(open(sys.argv[1])), sys.argv[2]
lib = os.path.join(prefix, "bin", "..", "lib", "libq7pred.so")
assert d["leaf_call"]["note"] == "dlsym from " + lib, d["leaf_call"]["note"]
rows = {r["method"].split(" (")[0]: r for r in d["throughput"]}
note = rows["numpy oracle"]["note"]
assert note.endswith(os.path.join(prefix, "bin", "..", "share", "q7pred", "bench", "numpy_bench.py")), note
assert lib in rows["Python ctypes, one call at a time"]["note"], rows["Python ctypes, one call at a time"]["note"]
PY
"$q" bench --prove-vector --fraction 8192 >pv.txt || bad "bench --prove-vector: $(tail -1 pv.txt)"
"$q" bench --run fp16-lib --fraction 4096 >run.txt || bad "bench --run fp16-lib (the prefix's library): $(cat run.txt)"
# prove: the prover's package installed under the prefix (share/q7pred/prover/)
[ -f "$prefix/share/q7pred/prover/q7prove/binary/__main__.py" ] || bad "tree: no share/q7pred/prover/q7prove/binary/__main__.py"
# every file of the package installed, and each entry point run from the prefix alone
(cd "$SRCDIR/prover" && find q7prove -name '*.py' -o -name '*.txt' | grep -v __pycache__) | while read -r f; do
    [ -f "$prefix/share/q7pred/prover/$f" ] || echo "$f"
done >missing-prover.txt
[ -s missing-prover.txt ] && bad "tree: share/q7pred/prover lacks $(tr '\n' ' ' <missing-prover.txt)"
if "$PYTHON" -c 'import z3, capstone, unicorn' 2>/dev/null; then
    for m in q7prove.binary q7prove.binary.check_translator q7prove.x86.check; do
        PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$prefix/share/q7pred/prover" "$PYTHON" -m "$m" --help >entry.txt 2>&1 ||
            bad "installed entry point python3 -m $m --help: $(tail -n 1 entry.txt)"
    done
fi
if "$PYTHON" -c 'import z3, capstone' 2>/dev/null && cvc5 --version >/dev/null 2>&1; then   # both solvers
    Q7PRED_PYTHON=$PYTHON "$q" prove --lib "$prefix/lib/libq7pred.so" --leaf lt_2_16_16 >prove.txt 2>&1 &&
        grep -qx '1 leaves: 1 proven-binary, 0 refuted, 0 unproven, 0 absent' prove.txt || bad "prove: $(tail -1 prove.txt)"
fi
[ "$fails" -eq 0 ] || exit 1
echo "PASS: install to $prefix, pkg-config, shared and static link, every subcommand of the installed CLI"
