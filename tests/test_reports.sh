#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Reports are whole or absent, valid for their format, and safe on a
# terminal (docs/report-format.md, "Writing reports" and "Foreign bytes"):
# - a report that cannot be written completely (a file-size limit, a full
#   filesystem, stdout on /dev/full) exits 2 naming it, and the old file
#   stays byte for byte, with no temporary file left; every report of the
#   run, or none, is replaced; likewise when a signal comes while they are
#   written;
# - two outputs naming one file (the same path, '-' twice, other
#   spellings, symbolic and hard links, /dev/stdout and '-') are a usage
#   error that writes nothing;
# - a report replaces the old file keeping its mode;
# - bytes that are not UTF-8 and control bytes in arguments and paths are
#   escaped in every report and on the terminal (one-line errors);
# - a printed `reproduce:` line runs under sh -c as printed, whatever
#   characters the library's path holds.
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
mnt=""
cleanup() { [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$t"; }
trap cleanup EXIT

small=(--corpus grid --leaf lt_1_8_8 --oracles sem,host --no-progress --quiet)
# each of its reports is larger than 16 KiB: a TestFloat file whose every
# expected result is wrong (x < x is false) makes mismatch records
for i in $(seq 0 299); do printf '%04X %04X 1 00\n' $((0x3c00 + i)) $((0x3c00 + i)); done >"$t/f16_lt.txt"
big=(--corpus "grid,testfloat:$t/f16_lt.txt" --oracles sem --max-report 60 --no-progress --quiet)

# one line on stderr, containing each expected string
one_line() { # file expected...
    local f=$1; shift
    [ "$(wc -l <"$f")" -eq 1 ] || return 1
    for w in "$@"; do grep -qF -- "$w" "$f" || return 1; done
}
no_temps() { [ -z "$(find "$1" -maxdepth 1 -name '.*.??????' 2>/dev/null)" ]; }

# ---- the old report survives a write that fails
"$Q7PRED" verify "${small[@]}" --json "$t/r.json" --markdown "$t/r.md" --junit "$t/r.xml" >/dev/null \
    || bad "small run failed"
for f in r.json r.md r.xml; do cp "$t/$f" "$t/$f.orig"; done
for opt in --json:r.json --markdown:r.md --junit:r.xml; do
    o=${opt%%:*} f=${opt#*:}
    # a file-size limit: the write fails (EFBIG) long before the report is whole
    (trap '' XFSZ; ulimit -f 2; exec "$Q7PRED" verify "${big[@]}" "$o" "$t/$f") >/dev/null 2>"$t/e"
    rc=$?
    if [ $rc -eq 2 ] && one_line "$t/e" "error writing report '$t/$f'" "left as it was" \
        && cmp -s "$t/$f" "$t/$f.orig" && no_temps "$t"; then
        ok "$o: a write error leaves the old report byte for byte (exit 2, path named)"
    else
        bad "$o write error: exit $rc, '$(cat "$t/e")', $(cmp "$t/$f" "$t/$f.orig" 2>&1) $(ls -A "$t")"
    fi
done
# every report or none: the markdown (no records: 1 KiB) fits, the JSON does not
(trap '' XFSZ; ulimit -f 2; exec "$Q7PRED" verify "${big[@]}" --max-report 0 --markdown "$t/r.md" --json "$t/r.json") \
    >/dev/null 2>"$t/e"
rc=$?
[ $rc -eq 2 ] && cmp -s "$t/r.json" "$t/r.json.orig" && cmp -s "$t/r.md" "$t/r.md.orig" && no_temps "$t" \
    && ok "one report failing keeps every old report" || bad "all or none: exit $rc, $(cat "$t/e")"
# the run that can write replaces them, keeping the old file's mode
chmod 640 "$t/r.json"
"$Q7PRED" verify "${small[@]}" --leaf le_1_8_8 --json "$t/r.json" >/dev/null
[ $? -eq 0 ] && ! cmp -s "$t/r.json" "$t/r.json.orig" && [ "$(stat -c %a "$t/r.json")" = 640 ] \
    && "$PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$t/r.json" \
    && ok "a written report replaces the old one, keeping its mode" || bad "replace: $(stat -c %a "$t/r.json")"

# a full filesystem (a tiny tmpfs, where this machine lets us mount one)
mkdir -p "$t/full"
if mount -t tmpfs -o size=16k tmpfs "$t/full" 2>/dev/null; then
    mnt=$t/full
    "$Q7PRED" verify "${small[@]}" --json "$mnt/r.json" >/dev/null
    cp "$mnt/r.json" "$t/full.orig"
    "$Q7PRED" verify "${big[@]}" --json "$mnt/r.json" >/dev/null 2>"$t/e"
    rc=$?
    [ $rc -eq 2 ] && one_line "$t/e" "error writing report '$mnt/r.json'" && cmp -s "$mnt/r.json" "$t/full.orig" \
        && no_temps "$mnt" && ok "a full filesystem leaves the old report whole" \
        || bad "full filesystem: exit $rc, '$(cat "$t/e")'"
    umount "$mnt" && mnt=""
else
    echo "note: cannot mount a tmpfs here; the file-size limit stands for a full filesystem"
fi

# stdout cannot be renamed: a failure there is named and exits 2
"$Q7PRED" verify "${small[@]}" --json - >/dev/full 2>"$t/e"
rc=$?
[ $rc -eq 2 ] && [ "$(grep -c "error writing report to stdout: No space left" "$t/e")" -eq 1 ] \
    && ok "a report to a full stdout exits 2" \
    || bad "stdout full: exit $rc, '$(cat "$t/e")'"
# a path whose directory is a file: refused before the run, nothing made
echo x >"$t/afile"
"$Q7PRED" verify "${small[@]}" --json "$t/afile/r.json" >"$t/o" 2>"$t/e"
rc=$?
[ $rc -eq 2 ] && one_line "$t/e" "cannot write report '$t/afile/r.json'" && [ ! -s "$t/o" ] \
    && ok "an unwritable path is refused before the run" || bad "ENOTDIR: exit $rc, '$(cat "$t/e")'"

# ---- a signal while the reports are written: nothing half done. A FIFO
# report with no reader holds verify (up to 20 s) waiting for one, after
# the JSON's temporary file is made; SIGTERM while it waits removes that
# file and leaves the old report (exit 143).
mkfifo "$t/fifo"
cp "$t/r.json.orig" "$t/sig.json"
"$Q7PRED" verify "${small[@]}" --json "$t/sig.json" --junit "$t/fifo" >"$t/o" 2>"$t/e" &
pid=$!
writing() { [ -n "$(find "$t" -maxdepth 1 -name '.sig.json.??????')" ]; }
await 60 writing && ok "verify is writing its reports" || bad "verify never blocked writing its reports"
kill -TERM $pid
reap $pid
rc=$?
[ $rc -eq 143 ] && no_temps "$t" && cmp -s "$t/sig.json" "$t/r.json.orig" && [ "$(wc -l <"$t/e")" -eq 1 ] \
    && ok "SIGTERM while writing: exit 143, no temporary file, the old report kept" \
    || bad "SIGTERM while writing: exit $rc, '$(cat "$t/e")', $(ls -A "$t")"
rm -f "$t/fifo" "$t/sig.json"

# ---- two outputs, one file
cp "$t/r.json.orig" "$t/same.out"
ln -s same.out "$t/link.out"
ln "$t/same.out" "$t/hard.out"
ln -s never.out "$t/dangling.out"
same_file() { # expected words, then the output options
    local want=$1; shift
    (cd "$t" && "$Q7PRED" verify "${small[@]}" "$@") >"$t/o" 2>"$t/e"
    local rc=$?
    if [ $rc -eq 2 ] && one_line "$t/e" "$want" && [ ! -s "$t/o" ] && cmp -s "$t/same.out" "$t/r.json.orig" \
        && [ ! -e "$t/never.out" ]; then
        ok "one file twice refused: $*"
    else
        bad "one file twice: $* -> exit $rc, '$(cat "$t/e")'"
    fi
}
same_file "--json and --markdown both write 'same.out'" --json same.out --markdown same.out
same_file "--json and --junit both write '-'" --json - --junit -
same_file "--json 'same.out' and --junit './same.out' are one file" --json same.out --junit ./same.out
same_file "are one file" --json same.out --markdown "$t/same.out"
same_file "are one file" --json same.out --markdown link.out
same_file "are one file" --json hard.out --junit same.out
same_file "are one file" --markdown dangling.out --junit never.out
same_file "are one file" --json - --markdown /dev/stdout
"$Q7PRED" merge --json "$t/m.json" --junit "$t/m.json" "$t/r.json" >/dev/null 2>"$t/e"
[ $? -eq 2 ] && one_line "$t/e" "merge: --json and --junit both write" && ok "merge refuses one file twice" \
    || bad "merge one file twice: $(cat "$t/e")"
# a link is followed: the report lands in its file, the link stays
(cd "$t" && "$Q7PRED" verify "${small[@]}" --json dangling.out >/dev/null)
[ -L "$t/dangling.out" ] && [ -s "$t/never.out" ] && ok "a symbolic link is written through" \
    || bad "symlink: $(ls -l "$t/dangling.out" "$t/never.out" 2>&1)"

# ---- foreign bytes: every report valid for its format, the terminal safe
nasty=$'lib\xff\x01\x1b[31m\xc2\x9b |&<x>"\'\\x.so'
cp "$Q7LIB" "$t/$nasty"
(cd "$t" && "$Q7PRED" verify --lib "$nasty" --oracles sem --corpus grid --family bitkill --no-progress \
    --json r2.json --markdown r2.md --junit r2.xml --html r2.html >out2.txt 2>err2.txt)
rc=$?
[ $rc -eq 0 ] && ok "a library with foreign bytes in its name runs" || bad "foreign lib: exit $rc $(cat "$t/err2.txt")"
"$PYTHON" - "$t" "$nasty" <<'PY' && ok "JSON, markdown, JUnit, HTML: valid UTF-8, valid format, path recoverable" \
    || bad "foreign bytes in reports"
import json, re, sys, xml.etree.ElementTree as ET
d, nasty = sys.argv[1], sys.argv[2].encode("utf-8", "surrogateescape")
raw = {n: open(f"{d}/{n}", "rb").read() for n in ("r2.json", "r2.md", "r2.xml", "r2.html", "out2.txt")}
for n, b in raw.items():
    b.decode("utf-8")                                   # strict: every report is UTF-8
    assert not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", b), n   # no control byte but newline
    assert n == "r2.json" or b"\xc2\x9b" not in b, n   # nor the C1 CSI (JSON carries it as U+009B)
r = json.loads(raw["r2.json"])
lib = r["oracles"][1]["lib"].encode("utf-8")
back = re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), lib)
assert back == nasty, (lib, back, nasty)                # \xHH -> byte HH recovers the path
assert "--lib $'lib\\377\\001\\033[31m\\302\\233 |&<x>\"\\'\\\\x.so'" in r["command"], r["command"]
ET.fromstring(raw["r2.xml"])                            # well-formed XML 1.0
assert b"<x>" not in raw["r2.html"] and b"&lt;x&gt;" in raw["r2.html"]   # HTML: markup in a name is text
PY
# an error is one line, whatever the argument holds
"$Q7PRED" list $'a\nb\x1b[2J\xff' >/dev/null 2>"$t/e"
[ $? -eq 2 ] && one_line "$t/e" "unexpected argument 'a\\x0ab\\x1b[2J\\xff'" && ok "an error with control bytes is one line" \
    || bad "list \$'a\\nb': $(cat -A "$t/e")"
"$Q7PRED" verify --leaf $'x\ry' >/dev/null 2>"$t/e"
[ $? -eq 2 ] && one_line "$t/e" "unknown leaf 'x\\x0dy'" && ok "verify's errors escape too" || bad "$(cat -A "$t/e")"

# ---- reproduce lines run as printed, whatever the library's path
mkdir -p "$t/bin" "$t/it's a \"dir\" \$(touch PWNED) \`touch PWNED\`"
ln -s "$Q7PRED" "$t/bin/q7pred"
crashdir="$t/it's a \"dir\" \$(touch PWNED) \`touch PWNED\`"
cp "$BUILD/tests/verify_crashlib.so" "$crashdir/crash lib;.so"
pre="$t/pre'\$x\"\`.so"
cp "$Q7LIB" "$pre"
(cd "$t" && "$Q7PRED" verify --lib "$crashdir/crash lib;.so" --preload "$pre" --oracles sem --corpus grid \
    --leaf olt_1_1_16f_16f --no-progress >"$t/crash.txt" 2>&1)
line=$(sed -n 's/^    reproduce: //p' "$t/crash.txt" | head -1)
[ -n "$line" ] && ok "a crash prints a reproduce line" || bad "no reproduce line: $(cat "$t/crash.txt")"
(cd "$t" && PATH="$t/bin:$PATH" sh -c "$line" >/dev/null 2>&1)
rc=$?
[ $rc -eq 139 ] && [ ! -e "$t/PWNED" ] && ok "the line runs under sh -c and crashes the same way (SIGSEGV)" \
    || bad "sh -c '$line': exit $rc, PWNED $( [ -e "$t/PWNED" ] && echo made || echo absent)"
"$PYTHON" - "$t/crash.txt" <<'PY' && ok "the JSON-free text line is one shell-quoted line" || bad "quoting"
import shlex, sys
line = [l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("    reproduce: ")][0][15:].rstrip("\n")
words = shlex.split(line)
assert words[0].startswith("LD_PRELOAD=") and words[0].endswith("pre'$x\"`.so"), words[0]
assert words[1].endswith("/q7pred") and words[2:5] == ["call", "--raw", "--lib"], words
assert words[5].endswith("/crash lib;.so"), words
PY
exit $fail
