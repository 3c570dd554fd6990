#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Hostile libraries and files, as an attacker would hand them to every
# command that runs a library (probe, verify --lib, call --lib): each is
# refused or reported by name, quickly, with the right exit, and never
# kills, hangs or forges the tool's output (bench --lib refuses the files
# too).
# - symbol names holding ESC[2J, colour codes, CR, newlines and bytes that
#   are not UTF-8 (the built library's names rewritten in place): printed
#   escaped on one line each, never a forged line; the JSON keeps them;
# - a FIFO, /dev/zero, a directory, an aarch64 ELF (skipped without the
#   cross compiler), a missing file: refused before anything reads them
#   whole, the reason named;
# - a constructor that hangs: "loading it hung" after --timeout;
# - a leaf that arms a 3 ms timer (its child dies between calls): the probe
#   survives (no SIGPIPE), prints every row and a note naming the leaf;
# - SIGTERM and SIGINT to a running probe: 143/130, no leaf blamed as
#   crashed, the JSON of what it finished marked interrupted, no child left.
# exclusive: python-package (bench --quick imports $BUILD/python)
# slow: a probe of each hostile library and file (about 8 s)
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
dir=$BUILD/tests/probe
mis=$BUILD/tests/misbehave
if [ ! -d "$dir" ] || [ ! -d "$mis" ]; then echo "no $dir or $mis: build them with make all"; exit 1; fi
nleaves=$(grep -c '^LEAF(' "$SRCDIR/include/q7pred_leaves.def")
PY=/usr/bin/python3

# ---- hostile names: the variant's placeholders rewritten, each the same length
"$PY" - "$dir/names.so" "$t/names.so" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
pads = {
    b"HOSTILE1_": b"\x1b[2J\x1b[1;1H\x1b[32mALL LEAVES CONFIRMED\x1b[0m",
    b"HOSTILE2_": b"\r\nALL LEAVES CONFIRMED\n\r",
    b"HOSTILE3_": b"\xff\xfe\xc3(\xe2\x82 not utf-8 \x07\x08\x7f",
}
for key, payload in pads.items():
    old = key + b"x" * 40
    new = (payload + b"z" * len(old))[:len(old)]
    assert data.count(old) >= 1, key
    data = data.replace(old, new)
open(sys.argv[2], "wb").write(bytes(data))
PY
"$Q7PRED" probe --lib "$t/names.so" --json "$t/names.json" >"$t/names.txt" 2>"$t/names.err"
check "hostile names: exit 1 (unknown symbols)" "[ $? -eq 1 ]"
check "hostile names: no control byte reaches the terminal" \
    "! LC_ALL=C grep -q \$'[\\x01-\\x08\\x0b-\\x1f\\x7f]' \"$t/names.txt\" \"$t/names.err\""
check "hostile names: the output is UTF-8" "iconv -f UTF-8 -t UTF-8 \"$t/names.txt\" >/dev/null 2>&1"
check "hostile names: no forged line" "! grep -q '^ALL LEAVES CONFIRMED' \"$t/names.txt\""
check "hostile names: each unknown name on one line, escaped" \
    "[ \$(grep -c '^unknown module__xdref_' \"$t/names.txt\") -eq 3 ] &&
     grep -qF 'unknown module__xdref_\\x1b[2J\\x1b[1;1H\\x1b[32mALL LEAVES' \"$t/names.txt\" &&
     grep -qF 'unknown module__xdref_\\x0d\\x0aALL LEAVES CONFIRMED\\x0a\\x0d' \"$t/names.txt\" &&
     grep -qF 'unknown module__xdref_\\xff\\xfe\\xc3(\\xe2\\x82 not utf-8 \\x07\\x08\\x7f' \"$t/names.txt\""
check "hostile names: the table's leaves are still probed" \
    "tail -n 1 \"$t/names.txt\" | grep -qx '$nleaves leaves: $nleaves confirmed, 0 refuted, 0 absent; 3 unknown symbols'"
"$PY" - "$t/names.json" <<'PY' && ok "hostile names: the JSON is whole and names them" || bad "hostile names: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
names = sorted(d["unknown_symbols"])
assert len(names) == 3 and all(n.startswith("module__xdref_") for n in names), names
assert any("\x1b[2J" in n for n in names) and any("\r\nALL LEAVES CONFIRMED\n" in n for n in names)
assert any("\\xff\\xfe" in n for n in names), names   # bytes that are not UTF-8: \xHH, docs/report-format.md
PY

# ---- files that are no library: refused by every command, by name, at once
mkfifo "$t/fifo.so"
mkdir "$t/dir.so"
refused() { # NAME PATH PATTERN
    local name=$1 path=$2 pat=$3 rc
    for cmd in "probe --lib" "verify --oracles sem --corpus grid --leaf lt_1_8_8 --no-progress --lib" \
               "call --lib" "bench --quick --lib"; do
        local extra=; [ "${cmd%% *}" = call ] && extra="lt_1_8_8 1 2"
        # shellcheck disable=SC2086
        timeout 60 "$Q7PRED" $cmd "$path" $extra >"$t/r.out" 2>"$t/r.err"; rc=$?
        check "$name: ${cmd%% *} refuses it (exit 2), saying why" \
            "[ $rc -eq 2 ] && [ \$(wc -l <\"$t/r.err\") -eq 1 ] && grep -qF -- \"$pat\" \"$t/r.err\""
    done
}
refused "a FIFO" "$t/fifo.so" "fifo.so': it is a FIFO, not a library file"
refused "/dev/zero" /dev/zero "'/dev/zero': it is a character device, not a library file"
refused "a directory" "$t/dir.so" "dir.so': it is a directory, not a library file"
refused "a missing file" "$t/none.so" "none.so': No such file or directory"
head -c 40 /dev/zero >"$t/short.so"
refused "a short file" "$t/short.so" "short.so': it is 40 bytes long, too short for an ELF header"
cp "$BUILD/obj/src/lib/abi/xdref.o" "$t/object.so"
refused "an object file" "$t/object.so" "object.so': it is an ELF object file (ET_REL), not a shared library"
CROSS_CC=aarch64-linux-gnu-gcc
if command -v "$CROSS_CC" >/dev/null 2>&1; then
    printf 'void module__xdref_lt_1_8_8(void *x, unsigned a, unsigned b, unsigned *r) { (void)x; *r = a < b; }\n' \
        >"$t/a64.c"
    if "$CROSS_CC" -shared -fPIC -o "$t/a64.so" "$t/a64.c"; then
        if [ "$(uname -m)" = x86_64 ]; then
            refused "an aarch64 ELF" "$t/a64.so" "a64.so': it is an ELF file for aarch64; this q7pred runs x86-64 code"
        else
            ok "an aarch64 ELF: this host may run it (not x86-64), not checked"
        fi
    else
        bad "$CROSS_CC cannot build a shared library"
    fi
elif [ "${CI:-}" = true ]; then
    bad "an aarch64 ELF: $CROSS_CC is required under CI=true"
else
    ok "an aarch64 ELF: skipped ($CROSS_CC not installed)"
fi

# ---- a constructor that hangs: bounded by --timeout, blamed on loading
# (each run's timeout 60 only guards against a probe that would wait forever)
timeout 60 "$Q7PRED" probe --lib "$mis/ctor_hang.so" --timeout 1 >"$t/h.out" 2>"$t/h.err"
check "hung constructor: probe says loading it hung (exit 2)" \
    "[ $? -eq 2 ] && grep -qF 'loading it hung (killed after 1 s, --timeout)' \"$t/h.err\""
timeout 60 "$Q7PRED" call --lib "$mis/ctor_hang.so" --timeout 1 olt_1_1_16f_16f 1 2 >"$t/h.out" 2>"$t/h.err"
check "hung constructor: call --lib says loading it hung (exit 2)" \
    "[ $? -eq 2 ] && grep -qF 'loading it hung (killed after 1 s, --timeout)' \"$t/h.err\""
timeout 60 "$Q7PRED" call --lib "$mis/hang.so" --timeout 1 olt_1_1_16f_16f 0x7e00 0x3c00 >"$t/h.out" 2>"$t/h.err"
check "a leaf that hangs: call --lib says so after --timeout (exit 1)" \
    "[ $? -eq 1 ] && grep -qF 'hung (killed after 1 s) in olt_1_1_16f_16f at input (0x7e00,0x3c00)' \"$t/h.err\""

# ---- a leaf whose child dies between calls (a 3 ms timer)
timeout 120 "$Q7PRED" probe --lib "$dir/timer.so" --json "$t/timer.json" >"$t/timer.txt" 2>"$t/timer.err"
rc=$?
check "timer: the probe survives the dead child (exit 1, not 141)" "[ $rc -eq 1 ]"
check "timer: every row printed" "[ \$(awk '\$2 == \"confirmed\" || \$2 == \"refuted\" || \$2 == \"crashed\"' \"$t/timer.txt\" | wc -l) -eq $nleaves ]"
check "timer: the death is named, after the calls of lt_1_8_8" \
    "grep -Eq '(^lt_1_8_8 .*its child died between calls|^note: the library.s child died between calls .*\\(SIGALRM\\) after running calls of lt_1_8_8)' \"$t/timer.txt\" &&
     tail -n 1 \"$t/timer.txt\" | grep -q '; the child died between calls [1-9][0-9]* time'"
check "timer: the JSON is whole" "$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"interrupted\"] is None and len(d[\"leaves\"]) == $nleaves' \"$t/timer.json\""

# ---- SIGTERM / SIGINT mid-probe: the interrupted status (the time it
# took is shown, not judged)
for sig in TERM INT; do
    want=$([ $sig = TERM ] && echo 143 || echo 130)
    mark="Q7PRED_PROBE_TEST=$t.$sig"
    env --default-signal=INT "$mark" "$Q7PRED" probe --lib "$mis/hang_all.so" --timeout 30 --json "$t/int.json" \
        >"$t/int.out" 2>"$t/int.err" &
    pid=$!
    sleep 1   # a second in at least, so that some leaves are done (a floor, not a deadline)
    armed "$pid" || bad "SIG$sig: the probe never caught SIGINT and SIGTERM"
    t0=$(date +%s%N)
    kill -s $sig $pid
    reap $pid; rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    check "SIG$sig: exit $want (after ${ms} ms)" "[ $rc -eq $want ]"
    check "SIG$sig: no leaf blamed as crashed, no success line" \
        "! grep -q ' crashed ' \"$t/int.out\" && grep -q '^interrupted (SIG$sig) after ' \"$t/int.out\" &&
         grep -q 'probe: interrupted (SIG$sig)' \"$t/int.err\""
    check "SIG$sig: the JSON has what it finished, marked interrupted" \
        "$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"interrupted\"] == \"SIG$sig\"' \"$t/int.json\""
    check "SIG$sig: no child left" 'await 60 none_marked "$mark"'
done
"$Q7PRED" verify --lib "$Q7LIB" --abi "$t/int.json" --oracles sem --corpus grid --no-progress >"$t/e" 2>&1
check "an interrupted probe's JSON is refused by --abi (exit 2)" \
    "[ $? -eq 2 ] && grep -qF 'the probe that wrote it was interrupted (SIGINT)' \"$t/e\""
exit $fail
