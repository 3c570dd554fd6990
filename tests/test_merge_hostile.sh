#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred merge trusts nothing in a shard report (docs/report-format.md,
# "Reading reports"): counts past 2^64-1, counts a unit cannot have, sums
# that would wrap, negative or non-finite times, input past the size limit
# and text that is not UTF-8 are refused (exit 2, one line naming the
# report), never merged into a PASS, and so are crash counts a unit cannot
# have, crash records past max_report, a malformed interrupt and another
# format version; missing shards are listed, or counted past the first ten,
# never silently cut.
set -u
. "$(dirname "$0")/support/check_lib.sh"

# exit 2, one line on stderr with the expected words, nothing on stdout
refused() { # what, expected, merge args...
    local what=$1 want=$2; shift 2
    "$Q7PRED" merge "$@" >"$t/o" 2>"$t/e"
    local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$t/e")" -eq 1 ] && grep -qF -- "$want" "$t/e" && [ ! -s "$t/o" ]; then
        ok "$what"
    else
        bad "$what: exit $rc, stderr '$(head -c 300 "$t/e")', stdout '$(head -c 100 "$t/o")'"
    fi
}
# the report with its first `from` replaced by `to`
edit() { # in out from to
    "$PYTHON" - "$@" <<'PY'
import sys
src, dst, a, b = sys.argv[1:5]
text = open(src, encoding="utf-8").read()
assert a in text, a
open(dst, "w", encoding="utf-8").write(text.replace(a, b, 1))
PY
}
# refused_edit WHAT EXPECTED IN FROM TO: IN with its first FROM made TO, refused
refused_edit() {
    if edit "$3" "$t/edited.json" "$4" "$5"; then refused "$1" "$2" "$t/edited.json"
    else bad "$1: '$4' is not in $3"; fi
}

run=(--corpus grid --leaf lt_1_8_8,lt_2_16_16 --oracles sem,host --host-path portable --no-progress --quiet)
"$Q7PRED" verify "${run[@]}" --shard 1/2 --json "$t/s1.json" >/dev/null || bad "shard 1 failed"
"$Q7PRED" verify "${run[@]}" --shard 2/2 --json "$t/s2.json" >/dev/null || bad "shard 2 failed"
"$Q7PRED" merge "$t/s1.json" "$t/s2.json" --quiet >"$t/o" && grep -q "^PASS" "$t/o" && ok "the true shards merge" \
    || bad "true shards: $(cat "$t/o")"
# the merged time is the shards' times summed, said so, never a wall time
"$Q7PRED" merge "$t/s1.json" "$t/s2.json" --json "$t/m.json" >"$t/o"
"$PYTHON" - "$t/s1.json" "$t/s2.json" "$t/m.json" <<'PY' >"$t/py" 2>&1; py=$?
import json, sys
s1, s2, m = (json.load(open(p)) for p in sys.argv[1:])
assert "wall_seconds" not in m and "wall_seconds" in s1, m.keys()
assert abs(m["summed_shard_seconds"] - (s1["wall_seconds"] + s2["wall_seconds"])) < 0.002, m["summed_shard_seconds"]
PY
[ $py -eq 0 ] && tail -n 1 "$t/o" | grep -Eq '^PASS: .* \([0-9.]+ s of its 2 shards summed, not a wall time\)$' \
    && ok "a merged report labels its summed time" || bad "merged time: $(tail -n 1 "$t/o") $(cat "$t/py")"

# ---- 2^64-1 mismatches in shard 1 and one real one in shard 2: never PASS
# (the lt_1_8_8 grid unit comes first in the file)
max=18446744073709551615
cell='"host": {"state": "ran", "checks": 63, "mismatches": 0'
edit "$t/s1.json" "$t/huge1.json" "$cell" "\"host\": {\"state\": \"ran\", \"checks\": 63, \"mismatches\": $max"
refused "a cell claiming more mismatches than checks" "the host cell counts more than its 98 cases" \
    "$t/huge1.json" "$t/s2.json"
edit "$t/s1.json" "$t/huge2.json" "$cell, \"out_of_domain\": 35" \
    "\"host\": {\"state\": \"ran\", \"checks\": $max, \"mismatches\": $max, \"out_of_domain\": 0"
edit "$t/huge2.json" "$t/huge3.json" '"grid", "cases": 98' "\"grid\", \"cases\": $max"
"$PYTHON" - "$t/s2.json" "$t/one.json" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'("host": \{"state": "ran", "checks": [1-9][0-9]*, "mismatches": )0', r"\g<1>1", text, count=1)
open(sys.argv[2], "w").write(text)
PY
"$Q7PRED" merge "$t/s1.json" "$t/one.json" --quiet >"$t/o" 2>&1
[ $? -eq 1 ] && grep -q "^FAIL: [0-9]* cases, [0-9]* checks, 1 mismatches" "$t/o" && ok "the one real mismatch alone merges to FAIL" || bad "one: $(cat "$t/o")"
refused "2^64-1 mismatches + 1: refused (its cases are not its shard's)" "but its shard 1/2 has 98" \
    "$t/huge3.json" "$t/one.json"
refused "a count past 2^64-1" "malformed cell in unit 0" "$(edit "$t/s1.json" "$t/big.json" "$cell" \
    '"host": {"state": "ran", "checks": 18446744073709551616, "mismatches": 0'; echo "$t/big.json")" "$t/s2.json"
refused "a count that is not an integer" "malformed cell in unit 0" "$(edit "$t/s1.json" "$t/frac.json" "$cell" \
    '"host": {"state": "ran", "checks": 6.3e1, "mismatches": 0'; echo "$t/frac.json")" "$t/s2.json"
refused "a negative count" "malformed unit 0" "$(edit "$t/s1.json" "$t/neg.json" '"grid", "cases": ' \
    '"grid", "cases": -1, "x": '; echo "$t/neg.json")" "$t/s2.json"

# counts true to their slices that still add up past 2^64-1: refused
"$Q7PRED" verify --corpus fuzz --fuzz-count other=3 --leaf bitkillt_8_1,bitkillt_16_2 --oracles sem,host \
    --no-progress --quiet --json "$t/f.json" >/dev/null
edit "$t/f.json" "$t/f1.json" '"other": 3' "\"other\": $max"
edit "$t/f1.json" "$t/f2.json" '"fuzz", "cases": 3' "\"fuzz\", \"cases\": $max"
edit "$t/f2.json" "$t/f3.json" '"fuzz", "cases": 3' "\"fuzz\", \"cases\": $max"
refused "totals past 2^64-1" "totals add up past 2^64-1" "$t/f3.json"

# ---- times: negative, beyond double's range, not numbers
refused "wall_seconds -1e308" "wall_seconds is not a finite number of seconds >= 0" \
    "$(edit "$t/s1.json" "$t/w.json" '"wall_seconds": ' '"wall_seconds": -1e308, "x": '; echo "$t/w.json")" "$t/s2.json"
refused "timeout_seconds 1e999" "parameters.timeout_seconds is not a finite number" \
    "$(edit "$t/s1.json" "$t/to.json" '"timeout_seconds": ' '"timeout_seconds": 1e999, "x": '; echo "$t/to.json")" \
    "$t/s2.json"
refused "a time that is a string" "wall_seconds is not a finite number" \
    "$(edit "$t/s1.json" "$t/ws.json" '"wall_seconds": ' '"wall_seconds": "1", "x": '; echo "$t/ws.json")" "$t/s2.json"

# ---- the size limit and the text itself
refused "/dev/zero stops at its first byte" "is not JSON: a NUL byte at byte 0" /dev/zero
truncate -s 67108865 "$t/sparse.json"
refused "a file past 64 MiB is refused unread" "larger than the report size limit of 64 MiB" "$t/sparse.json"
# a stream with no end (white space, valid JSON so far): stops at the limit
refused "an endless stream stops at 64 MiB" "larger than the report size limit of 64 MiB" \
    <(yes ' ' 2>/dev/null)
printf '{"format": "\xff"}' >"$t/latin1.json"
refused "a byte that is not UTF-8" "is not JSON: a byte that is not UTF-8" "$t/latin1.json"
printf '{"format": "a\\u0000b"}' >"$t/nul.json"
refused "a \\u0000 escape" "\\u0000 in a string" "$t/nul.json"
printf '{"format": "\\ud800"}' >"$t/sur.json"
refused "an unpaired surrogate" "unpaired surrogate" "$t/sur.json"
printf '{"a": 01}' >"$t/lead.json"
refused "a leading zero" "is not JSON" "$t/lead.json"
refused "a unit given twice" "given twice" "$(edit "$t/s1.json" "$t/dup.json" '"units": [' \
    '"units": [{"leaf": "lt_1_8_8", "family": "int-compare", "corpus": "grid", "cases": 98, "cells": {}},'; \
    echo "$t/dup.json")" "$t/s2.json"

# a crash only a library's child can have
"$Q7PRED" verify --lib "$BUILD/tests/verify_crashlib.so" --oracles sem,host --leaf olt_1_1_16f_16f --corpus grid \
    --no-progress --quiet --json "$t/c.json" >/dev/null
"$PYTHON" - "$t/c.json" "$t/ch.json" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
assert '{"oracle": "lib:' in text
open(sys.argv[2], "w").write(re.sub(r'\{"oracle": "lib:[^"]*"', '{"oracle": "host"', text, count=1))
PY
refused "a crash of an oracle that is no library" "malformed crash 0" "$t/ch.json"

# ---- the crash counts, the interrupt and the format version are checked
# as strictly as every other number (c.json: the library crashed on 2 of
# the 729 cases, checked 727)
lib_cell='"state": "crashed", "checks": 727, "mismatches": 0, "out_of_domain": 0, "crashes": 2'
refused_edit "crashes past the cases left (checks + out_of_domain + crashes > cases)" "cell counts more than its 729 cases" \
    "$t/c.json" "$lib_cell" "${lib_cell%2}3"
refused_edit "a crash count of 2^64" "malformed cell in unit 0" \
    "$t/c.json" "$lib_cell" "${lib_cell%2}18446744073709551616"
refused_edit "crashes counted in an oracle that is no library" "the host cell counts crashes, but only a library can crash" \
    "$t/c.json" '"checks": 729, "mismatches": 0, "out_of_domain": 0, "crashes": 0' \
        '"checks": 728, "mismatches": 0, "out_of_domain": 0, "crashes": 1'
refused_edit "more crash records than max_report" "more crash records of olt_1_1_16f_16f than its max_report 1" \
    "$t/c.json" '"max_report": 5' '"max_report": 1'
refused_edit "\"interrupted\" that is not a boolean" "missing or malformed \"interrupted\"" \
    "$t/c.json" '"interrupted": false' '"interrupted": 0'
refused_edit "an interrupted run without its signal" "\"interrupt_signal\" is not a signal number 1..127" \
    "$t/c.json" '"interrupted": false' '"interrupted": true'
edit "$t/c.json" "$t/i3a.json" '"interrupted": false' '"interrupted": true'
edit "$t/i3a.json" "$t/i3.json" '"interrupt_signal": 0' '"interrupt_signal": 300'
refused "an interrupt signal out of range" "not a signal number 1..127" "$t/i3.json"
edit "$t/i3a.json" "$t/i4.json" '"interrupt_signal": 0' '"interrupt_signal": 2'
refused "an interrupted shard" "was interrupted (SIGINT): run that shard again" "$t/i4.json"
refused_edit "threads_requested past 2^32-1" "\"threads_requested\" is not a count" \
    "$t/c.json" '"threads_requested": 0' '"threads_requested": 4294967296'
refused_edit "max_crashes that is not a count" "missing parameters.max_crashes" \
    "$t/c.json" '"max_crashes": 10' '"max_crashes": -1'
refused_edit "a report of format version 1" "unsupported report format version" \
    "$t/c.json" '"format_version": 3' '"format_version": 1'
# crash counts true to their unit that still add up past 2^64-1: two
# libraries crashing on every one of 2^63 cases
cp "$Q7LIB" "$t/other.so"
"$Q7PRED" verify --corpus fuzz --fuzz-count other=3 --leaf bitkillt_8_1 --oracles sem --lib "$Q7LIB" --lib "$t/other.so" \
    --no-progress --quiet --json "$t/l.json" >/dev/null
half=9223372036854775808
"$PYTHON" - "$t/l.json" "$t/l2.json" "$half" <<'PY'
import re, sys
text, half = open(sys.argv[1]).read(), sys.argv[3]
text = text.replace('"other": 3', '"other": ' + half, 1).replace('"fuzz", "cases": 3', '"fuzz", "cases": ' + half, 1)
text, n = re.subn(r'"state": "ran", "checks": 3, "mismatches": 0, "out_of_domain": 0, "crashes": 0',
                  '"state": "crashed", "checks": 0, "mismatches": 0, "out_of_domain": 0, "crashes": ' + half, text)
assert n == 2, n
open(sys.argv[2], "w").write(text)
PY
refused "crash totals past 2^64-1" "totals add up past 2^64-1" "$t/l2.json"

# ---- foreign text in a shard (escaped JSON strings) stays escaped in every output
edit "$t/s1.json" "$t/esc1.json" '"path": "portable"' '"path": "portable\u001b[31m\u0085\u009b"'
edit "$t/s2.json" "$t/esc2.json" '"path": "portable"' '"path": "portable\u001b[31m\u0085\u009b"'
"$Q7PRED" merge "$t/esc1.json" "$t/esc2.json" --json "$t/m.json" --junit "$t/m.xml" >"$t/m.txt" 2>&1
"$PYTHON" - "$t" <<'PY' && ok "a shard's control characters are escaped in text and XML" || bad "shard strings"
import json, re, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
txt = open(d + "/m.txt", "rb").read()
assert b"\x1b" not in txt and b"\xc2\x85" not in txt and b"\xc2\x9b" not in txt, txt
assert b"portable\\x1b[31m\\xc2\\x85\\xc2\\x9b" in txt, txt
m = json.load(open(d + "/m.json", encoding="utf-8"))
assert m["oracles"][1]["path"] == "portable\x1b[31m\x85\x9b", repr(m["oracles"][1]["path"])
ET.parse(d + "/m.xml")
PY

# ---- missing shards: listed, or the first ten and a count
for k in 1 2 3; do
    "$Q7PRED" verify "${run[@]}" --shard $k/15 --json "$t/p$k.json" >/dev/null
done
refused "missing shards listed with a count" \
    "missing shards 4/15, 5/15, 6/15, 7/15, 8/15, 9/15, 10/15, 11/15, 12/15, 13/15 and 2 more" \
    "$t/p1.json" "$t/p2.json" "$t/p3.json"
"$Q7PRED" verify "${run[@]}" --shard 2/3 --json "$t/q2.json" >/dev/null
refused "two missing shards listed in full" "missing shards 1/3 and 3/3" "$t/q2.json"
refused "one missing shard" "missing shard 2/2" "$t/s1.json"
exit $fail
