#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A mistyped command or option gets the nearest name ("did you mean X?"),
# as leaves and mnemonics do; a word near nothing gets no guess. Each is a
# usage error: exit 2, one line on stderr.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
fails=0
expect() { # WANT ARGS...: stderr contains WANT, exit 2, one line
    local want=$1 err rc
    shift
    err=$("$Q7PRED" "$@" 2>&1 >/dev/null </dev/null); rc=$?
    if [ "$rc" -ne 2 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [[ "$err" != *"$want"* ]]; then
        echo "FAIL: q7pred $*: exit $rc, '$err', want '$want'"; fails=$((fails + 1))
    fi
}
expect "unknown command 'verfy' (did you mean verify? commands: list, call, " verfy
expect "unknown command 'lsit' (did you mean list? commands: list, call, " lsit
expect "unknown command 'xyzzy' (commands: list, call, " xyzzy
expect "help: unknown command 'verfy' (did you mean verify? commands: list, call, " help verfy
expect "verify: unknown option '--quite' (did you mean --quiet? " verify --quite
expect "verify: unknown option '--orcales' (did you mean --oracles? " verify --orcales sem
expect "verify: unknown option '--resum' (did you mean --resume? " verify --resum x.json
expect "verify: unknown option '--frobnicate' (try q7pred verify --help)" verify --frobnicate
# two letters swapped, or a name cut short, before the nearest by edits
# (--lbi is one edit from --abi as well, and two from --lib)
expect "verify: unknown option '--lbi' (did you mean --lib? " verify --lbi x.so
expect "verify: unknown option '--ocrpus' (did you mean --corpus? " verify --ocrpus grid
expect "verify: unknown option '--check' (did you mean --checkpoint? " verify --check ck.json
expect "probe: unknown option '--lbi' (did you mean --lib? " probe --lbi x.so
expect "prove: unknown option '--lbi' (did you mean --lib? " prove --lbi x.so
expect "prove: unknown option '--jsno' (did you mean --json? " prove --jsno p.json
# --resume of a file that is there but no checkpoint says what it is not
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo 'not json' >"$tmp/notes.txt"
echo '{"library": "x.so", "leaves": []}' >"$tmp/probe.json"
expect "is not JSON: expected '{' at byte 0; so it is not a checkpoint (the JSON report verify --checkpoint FILE writes)" \
    verify --resume "$tmp/notes.txt"
expect "is not a q7pred verify report; so it is not a checkpoint (" verify --resume "$tmp/probe.json"
expect "verify: --resume: cannot read '$tmp/none.json': No such file" verify --resume "$tmp/none.json"
expect "merge: unknown option '--jsn' (did you mean --json? " merge --jsn a.json
expect "exec: unknown option '--trce' (did you mean --trace? " exec --trce p.q7
expect "call: unknown option '--rwa' (did you mean --raw? " call --rwa lt_1_8_8 1 2
expect "bench: unknown option '--quik' (did you mean --quick? " bench --quik
# a leaf's name: the rows it begins first, then those that hold it, then
# the nearest by edit distance (the table's order within each)
expect "unknown leaf 'clsfy' (nearest: clsfy_16f_16f, clsfy_32f_32f, " call clsfy 1
expect "unknown leaf 'CLSFY_32' (nearest: clsfy_32f_32f, " call CLSFY_32 1
expect "unknown leaf '16f_16f_2f' (nearest: oeq_1_2_16f_16f_2f_t, olt_1_2_16f_16f_2f_t, ole_1_2_16f_16f_2f_t;" \
    call 16f_16f_2f 1 2 1
expect "--leaf 'movfs' is not a leaf of the table (nearest: movfsv_64_64_64_64_64_64_64_64_512)" probe --lib x --leaf movfs
[ "$fails" -eq 0 ] || exit 1
echo "PASS: command and option typos get the nearest name"
