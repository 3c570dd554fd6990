#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Text a library controls never reaches a report as markup, and a proof
# report read back is checked before anything of it is shown:
# - markdown (prove, verify, report, merge): a symbol name an imported
#   call is made to, a reason, a library path with </td><script>, <img
#   onerror=...>, backticks, '|' and [a](javascript:b) in it opens no HTML
#   tag, no link, no extra table cell, and ends no code span early (a
#   CommonMark reading of the file, below: fenced blocks and code spans
#   set aside, what is left holds none of them);
# - list --proofs (and --proofs of verify and report) takes only the
#   statuses prove writes (and an IR proof's): one with terminal escapes
#   or any other text is refused (exit 2, one escaped line), so are two
#   rows of one leaf and an "interrupted" that is not a boolean; a report
#   of an interrupted prove run marks every leaf it did not reach as
#   "not run (interrupted)" (text, JSON and HTML).
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
cd "$t" || exit 1
CC=${CC:-cc}
evil='</td><script>alert(1)</script>`x`|[a](javascript:b)'

# markup_free FILE: exit 0 when FILE's markdown, read as CommonMark reads
# it, opens no tag or link from outside; else the offending text
markup_free() {
    "$PYTHON" - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
# fenced code blocks: from a line of ``` to the next such line
text = re.sub(r"(?ms)^```[^\n]*\n.*?^```[ \t]*$", "", text)
out, i = [], 0
while i < len(text):       # a code span ends at the next run of exactly as many backticks
    if text[i] != "`":
        out.append(text[i]); i += 1; continue
    n = len(re.match(r"`+", text[i:]).group(0))
    m = re.compile(r"(?<!`)`{%d}(?!`)" % n).search(text, i + n)
    if not m:
        out.append(text[i:i + n]); i += n; continue
    i = m.end()
rest = "".join(out)
bad = re.findall(r"<[A-Za-z/!?][^\n]{0,20}|\]\([^\n]{0,20}", rest)
# every row of a table holds as many cells as its header
tables, rows = [], []
for l in rest.splitlines() + [""]:
    if l.startswith("|"):
        rows.append(len(re.findall(r"(?<!\\)\|", l)))
    elif rows:
        tables.append(rows); rows = []
bad += [t for t in tables if len(set(t)) != 1]
if bad:
    print(bad[:3]); sys.exit(1)
PY
}

# ---- prove: the reason names an imported symbol
cat >imp.S <<EOF
    .text
    .globl module__xdref_lt_1_8_8
    .type module__xdref_lt_1_8_8, @function
module__xdref_lt_1_8_8:
    jmp "$evil"@PLT
    .section .note.GNU-stack,"",@progbits
EOF
$CC -shared -nostdlib -o imp.so imp.S || bad "cannot build imp.so"
nm -D imp.so | grep -qF "U $evil" && ok "imp.so imports a symbol named $evil" || bad "imp.so lacks its import"
# a stand-in prover reporting the symbol as the real one does (no z3 needed)
cat >stand-in <<EOF
#!/bin/sh
echo '{"prover": "stand-in <b>", "leaves": 1}'
echo '{"leaf": "lt_1_8_8", "status": "unproven", "seconds": 0, "reason": "calls or jumps to $(printf '%s' "$evil" | sed 's/"/\\\\"/g'), which the library imports"}'
EOF
chmod +x stand-in
"$Q7PRED" prove --lib imp.so --leaf lt_1_8_8 --python ./stand-in --markdown p.md >out 2>&1
grep -qF "$evil" out && ok "the reason names the symbol (terminal)" || bad "the stand-in's reason is missing: $(cat out)"
out=$(markup_free p.md) && ok "prove --markdown: no markup from the symbol's name" || bad "prove --markdown: $out"
grep -qF '&lt;/td&gt;&lt;script&gt;' p.md && ok "prove --markdown: the name shown, escaped" || bad "prove --markdown lacks the name"
if "$PYTHON" -c 'import z3, capstone' 2>/dev/null; then
    # prove loads the library as the loader does: the import is bound (-z now)
    # to a library beside it that defines the symbol
    cat >ev.S <<EOF
    .text
    .globl "$evil"
    .type "$evil", @function
"$evil":
    ret
    .section .note.GNU-stack,"",@progbits
EOF
    $CC -shared -nostdlib -Wl,-soname,libev.so -o libev.so ev.S &&
        $CC -shared -nostdlib -o impl.so imp.S -L. -lev -Wl,-rpath,'$ORIGIN' -Wl,-z,now || bad "cannot build impl.so"
    "$Q7PRED" prove --lib impl.so --leaf lt_1_8_8 --python "$PYTHON" --markdown real.md >out 2>&1
    grep -qF "calls or jumps to $evil" out && out=$(markup_free real.md) &&
        ok "prove --markdown with the real prover: the import named, no markup" || bad "real prover: $out $(head -c 300 real.md)"
else
    echo "note: the real prover's case skipped: $PYTHON has no z3 or capstone"
fi

# ---- verify, report and merge: a library path, in the lane hint and every list
dir="lib<img src=x onerror=alert(1)>\`|[x](javascript:y)"
mkdir -p "$dir"
printf '#include <stdint.h>\n__attribute__((visibility("default"))) void module__xdref_lt_1_8_8(void *x, uint32_t a,
    uint32_t b, uint32_t *r) { (void)x; *r = (int8_t)a < (int8_t)b; }\n' >lane.c
$CC -O2 -shared -fPIC -o "$dir/lane.so" lane.c || bad "cannot build lane.so"
"$Q7PRED" verify --lib "$dir/lane.so" --leaf lt_1_8_8 --oracles sem --no-progress --shard 1/1 \
    --markdown v.md --json v.json >out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'hint: lt_1_8_8 fails in lib:' out && ok "verify: the lane hint names the library (exit 1)" \
    || bad "verify of lane.so: exit $rc, $(head -c 300 out)"
out=$(markup_free v.md) && ok "verify --markdown: no markup from the path" || bad "verify --markdown: $out"
grep -q '^> hint: lt_1_8_8 fails in lib:.*&lt;img src=x' v.md && ok "verify --markdown: the hint line, escaped" \
    || bad "verify --markdown: no escaped hint line"
"$Q7PRED" report v.json --markdown r.md >/dev/null 2>&1
out=$(markup_free r.md) && ok "report --markdown: no markup from the path" || bad "report --markdown: $out"
"$Q7PRED" merge v.json --markdown m.md >/dev/null 2>&1
out=$(markup_free m.md) && ok "merge --markdown: no markup from the path" || bad "merge --markdown: $out"

# ---- proof reports read back
list_refused() { # name want file
    "$Q7PRED" list --proofs "$3" >out 2>err; local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$2" err && ! grep -q $'\x1b' err out; then ok "$1: $2"
    else bad "$1: exit $rc, $(head -c 300 err)"; fi
}
printf '{"leaves": [{"leaf": "lt_1_8_8", "status": "\\u001b[32mproven-binary\\u001b[0m"}]}' >esc.json
list_refused "a status with terminal escapes" "leaves[0] (lt_1_8_8) has the status '\\x1b[32mproven-binary\\x1b[0m', none of" esc.json
printf '{"leaves": [{"leaf": "lt_1_8_8", "status": "proven, trust me"}]}' >other.json
list_refused "a status of its own" "has the status 'proven, trust me', none of proven-ir, proven-semantics, unproven, proven-binary, refuted, absent" other.json
printf '{"leaves": [{"leaf": "vec:x", "status": "PROVEN"}]}' >api.json
list_refused "a bad status on a row outside the leaf table" "has the status 'PROVEN'" api.json
printf '{"leaves": [{"leaf": "lt_1_8_8", "status": "refuted"}, {"leaf": "le_1_8_8", "status": "proven-ir"}, {"leaf": "lt_1_8_8", "status": "proven-ir"}]}' >dup.json
list_refused "two rows of one leaf" "leaves[0] and leaves[2] are both rows of lt_1_8_8" dup.json
printf '{"leaves": [], "interrupted": 1}' >int.json
list_refused "interrupted not a boolean" '"interrupted" is not true or false' int.json
printf '{"leaves": [{"leaf": "vec:lt", "status": "proven-ir"}, {"leaf": "vec:lt", "status": "proven-ir"}, {"leaf": "lt_1_8_8", "status": "proven-ir"}]}' >formal.json
"$Q7PRED" list --proofs formal.json --json >out 2>err; rc=$?
check "rows outside the leaf table (API, vector) are read, never shown" \
    "[ $rc -eq 0 ] && grep -q '\"suffix\": \"lt_1_8_8\".*\"proof\": \"proven-ir\"' out && ! grep -q 'vec:lt' out"

# a prove run interrupted after its first leaf
cat >hang <<'EOF'
#!/bin/sh
echo '{"prover": "stand-in", "leaves": 3}'
echo '{"start": "lt_1_8_8"}'
echo '{"leaf": "lt_1_8_8", "status": "proven-binary", "seconds": 0}'
echo '{"start": "ltu_1_8_8"}'
while :; do sleep 1; done
EOF
chmod +x hang
env --default-signal=INT "$Q7PRED" prove --lib "$Q7LIB" --python ./hang --leaf lt_1_8_8 --leaf ltu_1_8_8 --leaf le_1_8_8 \
    --json cut.json >out 2>&1 &
pid=$!
armed "$pid" && await 60 grep -q '^proven-binary *lt_1_8_8' out || bad "the interrupted prove never got going"
kill -INT "$pid"; reap "$pid"; rc=$?
check "prove interrupted: exit 130, a report that says so" \
    "[ $rc -eq 130 ] && $PYTHON -c 'import json,sys; d=json.load(open(\"cut.json\")); sys.exit(not d[\"interrupted\"])'"
"$Q7PRED" list --proofs cut.json --family int-compare >out 2>&1
check "list --proofs of it: the leaf proven shows so, the others not run (interrupted), and the run is named as cut" \
    "grep -q '^  lt_1_8_8 .* proven-binary ' out && grep -q '^  ltu_1_8_8 .* not run (interrupted) ' out &&
     grep -q '^  le_1_8_8 .* not run (interrupted) ' out && grep -qF \"PROOF: 'cut.json' is the report of an interrupted run\" out"
"$Q7PRED" list --proofs cut.json --json >out 2>&1
check "list --json --proofs of it: not run (interrupted)" "grep -q '\"suffix\": \"ltu_1_8_8\".*\"proof\": \"not run (interrupted)\"' out"
# (the library the proofs are of is verified: proofs of another one are refused)
"$Q7PRED" verify --lib "$Q7LIB" --oracles sem --corpus grid --leaf ltu_1_8_8 --no-progress --quiet --html vh.html \
    --proofs cut.json --json u.json >/dev/null 2>&1
check "verify --html --proofs of it: ltu_1_8_8 not run (interrupted)" \
    "grep -q '<code>ltu_1_8_8</code></td><td class=\"none\">not run (interrupted)<' vh.html"
"$Q7PRED" report u.json --html h.html --proofs cut.json >/dev/null 2>&1
check "report --html --proofs of it: ltu_1_8_8 not run (interrupted)" \
    "grep -q '<code>ltu_1_8_8</code></td><td class=\"none\">not run (interrupted)<' h.html"
exit $fail
