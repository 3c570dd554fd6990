#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What make check prints, and what plain make builds:
# - tests/harness.sh prints each test's line as that test ends: a test
#   first in the report's order that waits for a later test's line to be
#   printed ends at once (a harness that held lines back in a fixed order
#   would keep it waiting until its guard fails it);
# - the job beside the tests (--beside NAME COMMAND: make check's brief
#   fuzz runs) is reported and counted as a test, with its output, before
#   the verdict, and its failure fails the run; the verdict line
#   `N passed, N failed, N skipped` is the last line;
# - make check's recipe hands over to the harness alone, which runs the
#   brief fuzz runs beside the tests (through $MAKE), so nothing of them
#   follows the verdict;
# - on a fresh copy of the sources (no build/), `make -n` makes the default
#   goal `all`: the library, the CLI and the C tests, the same commands as
#   `make -n all`.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# ---- the harness, on a tree of its own with three small tests
mkdir -p "$t/tree/tests" "$t/tree/build/tests"
cp "$SRCDIR/tests/harness.sh" "$t/tree/tests/"
out=$t/harness.out
# first in report order; ends only once the harness printed test_b's line
cat >"$t/tree/tests/test_a.sh" <<EOF
for i in \$(seq 600); do grep -q '^PASS test_b.sh' "$out" && exit 0; sleep 0.1; done
echo "test_b.sh's line was not printed while test_a.sh ran"; exit 1
EOF
echo 'exit 0' >"$t/tree/tests/test_b.sh"
printf '#!/bin/sh\nexit 0\n' >"$t/tree/build/tests/test_c"
chmod +x "$t/tree/build/tests/test_c"
(cd "$t/tree" && BUILD=build bash tests/harness.sh --jobs 2 --beside brief-runs 'echo "fuzz: x: Done 3 runs"') >"$out" 2>&1
rc=$?
grep -q '^PASS test_a.sh' "$out" && [ $rc -eq 0 ] \
    || bad "a test's line waited for the tests before it: exit $rc; $(grep -v '^ ' "$out" | tr '\n' '|')"
grep -q '^PASS brief-runs' "$out" && grep -q '^    fuzz: x: Done 3 runs' "$out" \
    || bad "the job beside the tests is not reported as a test with its output: $(tr '\n' '|' <"$out")"
[ "$(tail -n 1 "$out")" = "4 passed, 0 failed, 0 skipped" ] \
    || bad "the last line is not the verdict '4 passed, 0 failed, 0 skipped': '$(tail -n 1 "$out")'"
(cd "$t/tree" && BUILD=build bash tests/harness.sh --beside brief-runs 'echo "fuzz: x FAILED"; exit 1') >"$out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q '^FAIL brief-runs' "$out" && grep -q 'fuzz: x FAILED' "$out" \
    && [ "$(tail -n 1 "$out")" = "3 passed, 1 failed, 0 skipped" ] \
    || bad "a failing job beside the tests: exit $rc; $(tr '\n' '|' <"$out")"
[ $fails -eq 0 ] && echo "ok: each test's line as it ends, the job beside them counted, the verdict last"

# ---- a test that waits runs outside the job slots: with one slot, held by a
# test (longest first) that ends only once the waiting test has run
mkdir -p "$t/waits/tests" "$t/waits/build/tests" "$t/waits/build/test-logs"
cp "$SRCDIR/tests/harness.sh" "$t/waits/tests/"
printf 'test_long.sh 100\ntest_w.sh 1\n' >"$t/waits/build/test-logs/seconds"
cat >"$t/waits/tests/test_long.sh" <<EOF
for i in \$(seq 300); do [ -e "$t/waits/ran" ] && exit 0; sleep 0.1; done
echo "test_w.sh did not run while test_long.sh held the one slot"; exit 1
EOF
printf '# waits: a stand-in\ntouch "%s/waits/ran"\n' "$t" >"$t/waits/tests/test_w.sh"
cp "$t/tree/build/tests/test_c" "$t/waits/build/tests/"
(cd "$t/waits" && BUILD=build bash tests/harness.sh --jobs 1 --beside none true) >"$out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^PASS test_long.sh' "$out" && grep -q '^PASS test_w.sh' "$out" \
    && echo "ok: a test that waits runs outside the job slots" \
    || bad "a '# waits:' test did not run beside a test holding the only slot: exit $rc; $(tr '\n' '|' <"$out")"

# ---- make check builds, the harness runs: the brief fuzz runs are the harness's
recipe=$(sed -n '/^check:.*check-asan/,/^$/p' "$SRCDIR/Makefile")
grep -q 'harness.sh$' <<<"$recipe" && ! grep -q 'fuzz-brief-serial\|beside' <<<"$recipe" \
    && echo "ok: make check's recipe only hands over to the harness" \
    || bad "make check's recipe runs more than the harness: $recipe"
printf '#!/bin/sh\necho "fake make: $*"\n' >"$t/fake-make"; chmod +x "$t/fake-make"
(cd "$t/tree" && BUILD=build MAKE="$t/fake-make" bash tests/harness.sh --jobs 2) >"$out" 2>&1
grep -q '^PASS fuzz-brief' "$out" && grep -q 'fake make: --no-print-directory BUILD=build PYTHON=[^ ]* fuzz-brief-serial$' "$out" \
    && echo "ok: a full run runs the brief fuzz runs beside the tests, through \$MAKE" \
    || bad "a full run without --beside did not run fuzz-brief-serial through \$MAKE: $(tr '\n' '|' <"$out")"

# ---- plain make on a fresh copy: the default goal is all
mkdir "$t/fresh"
if git -C "$SRCDIR" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$SRCDIR" && git ls-files -co --exclude-standard -z | tar cf - --null -T -) | tar xf - -C "$t/fresh"
else
    (cd "$SRCDIR" && tar cf - --exclude=./build --exclude='./build*' .) | tar xf - -C "$t/fresh"
fi
rm -rf "$t/fresh/build"
plain=$(cd "$t/fresh" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n 2>&1)
all=$(cd "$t/fresh" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n all 2>&1)
[ ! -e "$t/fresh/build" ] || bad "make -n wrote build/"
if [ "$plain" != "$all" ]; then
    bad "make -n differs from make -n all: $(diff <(echo "$plain") <(echo "$all") | head -5 | tr '\n' '|')"
fi
for want in "-o build/libq7pred.so.0" "-o build/q7pred" "-o build/tests/test_model_smoke"; do
    grep -q -- "$want" <<<"$plain" || bad "make -n on a fresh copy does not build '$want': $(head -c 300 <<<"$plain")"
done
[ $fails -eq 0 ] && echo "ok: plain make on a fresh copy builds all: the library, the CLI and the tests"
exit $((fails > 0))
