#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred probe: build/libq7pred.so probes all-confirmed (exit 0); each
# library under $BUILD/tests/probe/ (mk/probe.mk) differs from the tables in
# one known way, written out below from how the library was built, and the
# probe must name exactly that difference (exit 1) and confirm the other
# leaves; the JSON is whole and says the same; bad use exits 2.
set -u
. "$(dirname "$0")/support/check_lib.sh"
dir=$BUILD/tests/probe
if [ ! -d "$dir" ]; then echo "no $dir: build it with make all"; exit 1; fi
nleaves=$(grep -c '^LEAF(' "$SRCDIR/include/q7pred_leaves.def")

# row LEAF FILE: the leaf's table row of the probe's stdout
row() { awk -v l="$1" '$1 == l' "$2"; }
confirmed() { awk '$2 == "confirmed"' "$1" | wc -l; }

"$Q7PRED" probe --lib "$Q7LIB" --json "$t/real.json" >"$t/real.txt" 2>&1
check "the real library: exit 0" "[ $? -eq 0 ]"
check "the real library: $nleaves confirmed" "[ $(confirmed "$t/real.txt") -eq $nleaves ]"
# movfsv, movvfs, and the reduces borfs/bnorfs (m_i bit k -> bit k)
check "the real library: the inferred bit maps" \
    "[ \$(grep -c 'bit map as inferred' \"$t/real.txt\") -eq 4 ] &&
     row borfs_2n_64_64_64_64_64_64_64_64_64 \"$t/real.txt\" | grep -q 'bit map as inferred' &&
     row bnorfs_2n_64_64_64_64_64_64_64_64_64 \"$t/real.txt\" | grep -q 'bit map as inferred'"
/usr/bin/python3 - "$t/real.json" "$nleaves" <<'PY' && ok "the real library: its JSON" || bad "the real library: its JSON"
import json, sys
d = json.load(open(sys.argv[1]))
L = d["leaves"]
assert len(L) == int(sys.argv[2]) and d["unknown_symbols"] == [] and d["library"]
assert all(x["status"] == "confirmed" and x["found_shape"] == x["table_shape"] for x in L)
m = {x["leaf"]: x for x in L}
fsv = m["movfsv_64_64_64_64_64_64_64_64_512"]["bit_map"]
vfs = m["movvfs_512_64_64_64_64_64_64_64_64"]["bit_map"]
# DECISIONS.md section 3: FS_j bit k = vector bit 8k+j
assert fsv == [64 * (v % 8) + v // 8 for v in range(512)]
assert vfs == [8 * (i % 64) + i // 64 for i in range(512)]
assert all("bit_map" not in x for x in L if not x["leaf"].startswith("mov"))
PY

# probe_one VARIANT LEAF STATUS FOUND EVIDENCE-PATTERN [OTHERS]
probe_one() {
    local v=$1 leaf=$2 status=$3 found=$4 pat=$5 others=${6:-$((nleaves - 1))}
    "$Q7PRED" probe --lib "$dir/$v.so" --json "$t/$v.json" >"$t/$v.txt" 2>&1
    check "$v: exit 1" "[ $? -eq 1 ]"
    local r; r=$(row "$leaf" "$t/$v.txt")
    check "$v: $leaf $status, found $found" "[ \"\$(echo '$r' | awk '{print \$2, \$4}')\" = '$status $found' ]"
    check "$v: evidence says '$pat'" "echo '$r' | grep -qF -- '$pat'"
    check "$v: every other leaf confirmed" "[ $(confirmed "$t/$v.txt") -eq $others ]"
}
probe_one ord_result_4th olt_1_2_16f_16f refuted BIN "writes arg 4 (result), 1 word"
probe_one ult_aux ult_1_1_16f_16f refuted ORD "writes arg 4 (aux), 1 word; writes arg 5 (result), 1 word"
probe_one tail_pred_first olt_1_2_16f_16f_2f_t refuted TER "reproduces the model with arguments (C, A, B, result)"
# the order search covers every group of like arguments at once: the
# pointers of one size as well as the values
probe_one ord_swapped olt_1_1_16f_16f refuted ORD "reproduces the model with arguments (A, B, result, aux)"
probe_one m2_swapped andnotb_64_64_64 refuted M2 "reproduces the model with arguments (B, A, out)"
probe_one fs_swapped movfsv_64_64_64_64_64_64_64_64_512 refuted VEC2FS \
    "reproduces the model with arguments (vec, FS1, FS0, FS2, FS3, FS4, FS5, FS6, FS7)"
# eight like inputs (more than are permuted): ordered by where their bits land
probe_one fs_in_swapped movvfs_512_64_64_64_64_64_64_64_64 refuted FS2VEC \
    "reproduces the model with arguments (FS1, FS0, FS2, FS3, FS4, FS5, FS6, FS7, vec)"
probe_one unstable lt_1_8_8 refuted - "answers differ between identical calls"
probe_one movfsv_out_first movfsv_64_64_64_64_64_64_64_64_512 refuted - "writes input arg 2 (vec)"
# the table's argument list explains every read and write; the bits land
# elsewhere than the row says: the values differ, the ABI is found
probe_one movfsv_words movfsv_64_64_64_64_64_64_64_64_512 values-differ VEC2FS \
    "bit map differs from the inferred one at 504 of 512 bits (vec bit 1 -> FS0 bit 1, inferred FS1 bit 0)"
probe_one bnorfs_words_swapped bnorfs_2n_64_64_64_64_64_64_64_64_64 values-differ RED8 \
    "bit map differs from the inferred one at 512 of 512 bits (m0 bit 0 -> out bit 32, inferred out bit 0)"
probe_one bnorfs_missing bnorfs_2n_64_64_64_64_64_64_64_64_64 absent - "not in the dynamic symbol table"
probe_one past_result lt_2_16_16 refuted - "writes arg 4 word 1, 1 past its 1"
probe_one segv_all clsfy_16f_16f crashed - "every candidate shape crashed"
check "bnorfs_missing: the two family-like names first, each with its nearest row" \
    "head -2 \"$t/bnorfs_missing.txt\" | grep -q 'unknown module__xdref_bnandfs_2n_64_64_64_64_64_64_64_64_64 (family-like; nearest row bnorfs_2n' &&
     head -2 \"$t/bnorfs_missing.txt\" | grep -q 'unknown module__xdref_oge_1_1_16f_16f (family-like; nearest row'"
/usr/bin/python3 - "$t" <<'PY' && ok "the test libraries' JSON" || bad "the test libraries' JSON"
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/bnorfs_missing.json"))
assert sorted(d["unknown_symbols"]) == ["module__xdref_bnandfs_2n_64_64_64_64_64_64_64_64_64",
                                        "module__xdref_oge_1_1_16f_16f"]
m = {x["leaf"]: x for x in d["leaves"]}
assert m["bnorfs_2n_64_64_64_64_64_64_64_64_64"]["status"] == "absent"
m = {x["leaf"]: x for x in json.load(open(t + "/ord_result_4th.json"))["leaves"]}
assert m["olt_1_2_16f_16f"]["found_shape"] == "BIN" and m["olt_1_2_16f_16f"]["table_shape"] == "ORD"
m = {x["leaf"]: x for x in json.load(open(t + "/movfsv_words.json"))["leaves"]}
bm = m["movfsv_64_64_64_64_64_64_64_64_512"]["bit_map"]
# the library's own map, written out: FS_j is vector words 2j, 2j+1
assert bm == list(range(512)), bm[:8]
m = {x["leaf"]: x for x in json.load(open(t + "/movfsv_out_first.json"))["leaves"]}
assert m["movfsv_64_64_64_64_64_64_64_64_512"]["bit_map"] is None
# found_order: the found shape's argument names in call order; null with no shape
def leaf(v, name):
    return {x["leaf"]: x for x in json.load(open(t + "/" + v + ".json"))["leaves"]}[name]
assert leaf("ord_swapped", "olt_1_1_16f_16f")["found_order"] == ["A", "B", "result", "aux"]
assert leaf("ord_swapped", "olt_1_1_16f_16f")["found_shape"] == "ORD"
assert leaf("ord_swapped", "oeq_1_1_16f_16f")["found_order"] == ["A", "B", "aux", "result"]
assert leaf("m2_swapped", "andnotb_64_64_64")["found_order"] == ["B", "A", "out"]
assert leaf("fs_swapped", "movfsv_64_64_64_64_64_64_64_64_512")["found_order"] == \
    ["vec", "FS1", "FS0"] + ["FS%d" % i for i in range(2, 8)]
assert leaf("fs_in_swapped", "movvfs_512_64_64_64_64_64_64_64_64")["found_order"] == \
    ["FS1", "FS0"] + ["FS%d" % i for i in range(2, 8)] + ["vec"]
assert leaf("tail_pred_first", "olt_1_2_16f_16f_2f_t")["found_order"] == ["C", "A", "B", "result"]
assert leaf("ord_result_4th", "olt_1_2_16f_16f")["found_order"] == ["A", "B", "result"]
assert leaf("segv_all", "clsfy_16f_16f")["found_order"] is None
assert leaf("unstable", "lt_1_8_8")["found_order"] is None
assert json.load(open(t + "/ord_swapped.json"))["interrupted"] is None
PY

# verify --abi: the library whose only difference is its ABI passes with
# the probe's shapes (and not without them); a leaf with no shape is not
# called, and the header says so
V="--oracles sem --corpus grid,fuzz --fuzz-count 300 --no-progress"
"$Q7PRED" verify --lib "$dir/ord_result_4th.so" $V >"$t/v0.txt" 2>&1
check "verify without --abi: the ABI difference fails" "[ $? -eq 1 ]"
"$Q7PRED" verify --lib "$dir/ord_result_4th.so" --abi "$t/ord_result_4th.json" $V >"$t/v1.txt" 2>&1
check "verify --abi: passes" "[ $? -eq 0 ] && grep -q '^PASS' "$t/v1.txt""
check "verify --abi: the header names the refuted leaf" \
    "grep '^  lib:' \"$t/v1.txt\" | grep -qF -- '--abi: 0 not called, 1 called otherwise: olt_1_2_16f_16f (as BIN)'"
# a library whose arguments come in another order passes with the order
# the probe found (and fails without it)
for v in tail_pred_first ord_swapped m2_swapped fs_swapped fs_in_swapped; do
    "$Q7PRED" verify --lib "$dir/$v.so" $V --quiet >"$t/v2.txt" 2>&1
    check "verify without --abi: $v fails" "[ $? -eq 1 ]"
    "$Q7PRED" verify --lib "$dir/$v.so" --abi "$t/$v.json" $V >"$t/v2.txt" 2>&1
    check "verify --abi: $v passes, called in the order found" \
        "[ $? -eq 0 ] && tail -n 1 \"$t/v2.txt\" | grep -q '^PASS' && grep '^  lib:' \"$t/v2.txt\" | grep -q 'in the order'"
done
# a leaf the probe found no argument list for is not called: named in the
# verdict, exit 1; left out by --leaf, no gap
"$Q7PRED" verify --lib "$dir/segv_all.so" --abi "$t/segv_all.json" $V --by-leaf >"$t/v2.txt" 2>&1
check "verify --abi: a leaf not called is named in the verdict, exit 1" \
    "[ $? -eq 1 ] && tail -n 1 \"$t/v2.txt\" | grep -q '^INCOMPLETE: 1 leaf not called (--abi): crashed in probe: clsfy_16f_16f; ' &&
     grep '^  lib:' \"$t/v2.txt\" | grep -qF -- '--abi: 1 not called, 0 called otherwise: clsfy_16f_16f (not called: crashed in probe)' &&
     [ \$(awk '\$1 == \"clsfy_16f_16f\" && \$NF == \"n/a\"' \"$t/v2.txt\" | wc -l) -eq 2 ]"
"$Q7PRED" verify --lib "$dir/segv_all.so" --abi "$t/segv_all.json" $V --quiet --family int-compare >"$t/v2.txt" 2>&1
check "verify --abi: a leaf not called but not selected is no gap" "[ $? -eq 0 ] && grep -q '^PASS' \"$t/v2.txt\""
"$Q7PRED" verify --lib "$dir/unstable.so" --abi "$t/unstable.json" $V --quiet >"$t/v2.txt" 2>&1
check "verify --abi: answers that differ between identical calls: not called" \
    "[ $? -eq 1 ] && grep -q '^INCOMPLETE: 1 leaf not called (--abi): no argument list found by the probe: lt_1_8_8' \"$t/v2.txt\""
"$Q7PRED" verify --lib "$Q7LIB" $V >"$t/v3.txt" 2>&1
"$Q7PRED" verify --lib "$Q7LIB" --abi "$t/real.json" $V >"$t/v4.txt" 2>&1
check "verify --abi with an all-confirmed probe: the same table" \
    "diff <(sed -n '/^family/,/^TOTAL/p; \$s/ ([0-9.]* s)//p' \"$t/v3.txt\") <(sed -n '/^family/,/^TOTAL/p; \$s/ ([0-9.]* s)//p' \"$t/v4.txt\") >/dev/null"
echo '{"library": "x", "leaves": [{"leaf": "olt_1_2_16f_16f", "status": "refuted", "table_shape": "BIN", "found_shape": null}]}' >"$t/bad1.json"
"$Q7PRED" verify --lib "$Q7LIB" --abi "$t/bad1.json" $V >"$t/e7" 2>&1
check "verify --abi: a wrong table shape, exit 2 naming file and leaf" \
    "[ $? -eq 2 ] && grep -q \"bad1.json': leaves\\[0\\] (olt_1_2_16f_16f) has a \\\"table_shape\\\"\" \"$t/e7\""
echo '{"library": "x", "leaves": [' >"$t/bad2.json"
"$Q7PRED" verify --lib "$Q7LIB" --abi "$t/bad2.json" $V >"$t/e8" 2>&1
check "verify --abi: not JSON, exit 2" "[ $? -eq 2 ] && grep -q \"bad2.json' is not JSON\" \"$t/e8\""
"$Q7PRED" verify --abi "$t/real.json" $V >"$t/e9" 2>&1
check "verify --abi without --lib: exit 2" "[ $? -eq 2 ] && grep -q 'without a library' \"$t/e9\""

# --leaf, usage errors, a file that is not a 64-bit little-endian ELF
"$Q7PRED" probe --lib "$Q7LIB" --leaf eq_1_8_8 --leaf module__xdref_notb_64_64 >"$t/two.txt" 2>&1
check "--leaf: exactly the two leaves" \
    "[ $? -eq 0 ] && [ \$(awk 'NR > 1 && \$2 == \"confirmed\"' \"$t/two.txt\" | wc -l) -eq 2 ] &&
     tail -n 1 \"$t/two.txt\" | grep -qx '2 leaves: 2 confirmed, 0 refuted, 0 absent; 0 unknown symbols'"
check "the summary counts the run's leaves" \
    "tail -n 1 \"$t/real.txt\" | grep -qx '$nleaves leaves: $nleaves confirmed, 0 refuted, 0 absent; 0 unknown symbols' &&
     tail -n 1 \"$t/bnorfs_missing.txt\" | grep -qx '$nleaves leaves: $((nleaves - 1)) confirmed, 0 refuted, 1 absent; 2 unknown symbols' &&
     tail -n 1 \"$t/segv_all.txt\" | grep -qx '$nleaves leaves: $((nleaves - 1)) confirmed, 0 refuted, 0 absent, 1 crashed; 0 unknown symbols'"
"$Q7PRED" probe >"$t/e1" 2>&1; check "no --lib: exit 2" "[ $? -eq 2 ] && grep -q -- '--lib PATH is required' \"$t/e1\""
"$Q7PRED" probe --lib "$Q7LIB" --leaf nosuch >"$t/e2" 2>&1
check "an unknown --leaf: exit 2, named" "[ $? -eq 2 ] && grep -q \"'nosuch' is not a leaf\" \"$t/e2\""
echo "not elf" >"$t/x.so"
"$Q7PRED" probe --lib "$t/x.so" >"$t/e3" 2>&1
check "not ELF: exit 2, named" "[ $? -eq 2 ] && grep -q \"x.so': it is .*too short for an ELF header\" \"$t/e3\""
head -c 200 /dev/urandom | tr -d '\177' >"$t/y.so"
"$Q7PRED" probe --lib "$t/y.so" >"$t/e3" 2>&1
check "no ELF magic: exit 2, named" "[ $? -eq 2 ] && grep -q \"y.so': it is not an ELF file (no ELF magic)\" \"$t/e3\""
printf '\177ELF\001\001\001' | dd of="$t/elf32.so" bs=64 conv=sync 2>/dev/null
"$Q7PRED" probe --lib "$t/elf32.so" >"$t/e4" 2>&1
check "32-bit ELF: exit 2, refused" "[ $? -eq 2 ] && grep -q 'it is a 32-bit little-endian ELF file; this q7pred loads 64-bit' \"$t/e4\""
"$Q7PRED" probe --lib "$Q7LIB" --timeout 0 >"$t/e5" 2>&1; check "--timeout 0: exit 2" "[ $? -eq 2 ]"
# --disasm: with capstone built in, the ordered compare's two stores go
# through the 4th and 5th argument registers of the x86-64 SysV ABI (rcx:
# aux, r8: result, as the spec page read them); without it, exit 2
"$Q7PRED" probe --lib "$Q7LIB" --disasm --leaf olt_1_1_16f_16f >"$t/e6" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q 'built without capstone' "$t/e6"; then
    if [ "${CI:-}" = true ]; then bad "--disasm: capstone is required under CI=true"
    else ok "--disasm: unavailable without capstone (exit 2)"; fi
elif [ "$(uname -m)" = x86_64 ]; then
    check "--disasm: the result stored via (%r8), the aux via (%rcx)" \
        "[ $rc -eq 0 ] && grep -q 'store via (%r8)' \"$t/e6\" && grep -q 'store via (%rcx)' \"$t/e6\""
else
    check "--disasm: runs" "[ $rc -eq 0 ]"
fi
mkdir "$t/ro" && echo keep >"$t/ro/old.json"
"$Q7PRED" probe --lib "$dir/segv_all.so" --leaf clsfy_16f_16f --json "$t/ro/old.json" >/dev/null 2>&1
check "--json replaces the file whole" "/usr/bin/python3 -c 'import json; json.load(open(\"$t/ro/old.json\"))'"
check "no temporary file left" "[ \$(ls -A \"$t/ro\" | wc -l) -eq 1 ]"
exit $fail
