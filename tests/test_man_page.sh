#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred(1): docs/q7pred.1 is what tools/man_page.py makes from this
# build's help texts (else: make man), groff reads it without a warning
# (-ww), `man -l` renders it without one, and the rendered page holds every
# command's subsection and every option of every command's help. Without
# groff or man (groff-base, man-db) those checks are a SKIP, under
# CI=true a failure.
set -u
. "$(dirname "$0")/support/check_lib.sh"
PY=/usr/bin/python3
page=$SRCDIR/docs/q7pred.1

"$PY" "$SRCDIR/tools/man_page.py" "$Q7PRED" >"$t/fresh.1"
if cmp -s "$t/fresh.1" "$page"; then
    ok "docs/q7pred.1 is what the help texts make"
else
    bad "docs/q7pred.1 differs from what the help texts make (run make man):"
    diff "$page" "$t/fresh.1" | head -20
fi

missing=
for tool in groff man; do command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"; done
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then bad "not installed:$missing (groff-base, man-db; .ci/run installs them)"; exit 1; fi
    [ "$fail" -eq 0 ] || exit 1
    echo "skipped: no$missing (apt-get install groff-base man-db)"
    exit 77
fi
groff -man -ww -z "$page" >"$t/groff.out" 2>&1
check "groff -man -ww reads it without a warning" "[ $? -eq 0 ] && [ ! -s \"$t/groff.out\" ]"
cat "$t/groff.out"
MANWIDTH=80 man --warnings -l "$page" >"$t/page.txt" 2>"$t/man.err" </dev/null
check "man -l renders it without a warning" "[ $? -eq 0 ] && [ ! -s \"$t/man.err\" ] && [ -s \"$t/page.txt\" ]"
cat "$t/man.err"

# every command, and every option its help names, in the rendered page
commands=$("$Q7PRED" help | sed -n '/^Commands:$/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$commands" ] || bad "q7pred help lists no commands"
for c in $commands; do
    grep -qx "   q7pred $c" "$t/page.txt" || bad "the page has no subsection q7pred $c"
    for opt in $("$Q7PRED" help "$c" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
        grep -q -- "$opt" "$t/page.txt" || bad "the page does not name $opt of q7pred $c"
    done
done
ok "the page has every command ($(echo $commands)) and each one's options"
exit $fail
