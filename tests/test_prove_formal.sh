#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make prove-formal (prover/q7prove/ir): every leaf, clean-API function and
# vector kernel of each path, compiled by clang to LLVM IR, proven equal to the
# specification for every input; and the proof shown able to fail:
#   1. the translator's terms agree with the native library on edge and
#      random inputs, and disagree with a mutant library (the check can fail);
#   2. the full proof: exit 0, every row of build/prove-formal.json
#      proven-ir or a listed known gap, one row per leaf of `q7pred list`;
#   3. each `make mutants` pitfall compiled in: the proof fails, naming
#      exactly the leaves the pitfall breaks (tests/support/mutant_expect.sh).
# Needs clang, python3-z3 and python3-llvmlite: without them a SKIP, but
# under CI=true (where .ci/run installs them) a failure.
# slow: every leaf, API function and vector kernel proven by z3 (about 100 s)
set -u
cd "$SRCDIR"
CLANG=${CLANG:-clang}
prove=(env PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=prover "$PYTHON" -m q7prove.ir --cc "$CLANG" --build "$BUILD")
missing=
command -v "$CLANG" >/dev/null || missing="$CLANG"
"$PYTHON" -c 'import z3, llvmlite' 2>/dev/null || missing="$missing python3-z3/python3-llvmlite"
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then echo "FAIL: missing under CI: $missing"; exit 1; fi
    echo "skipped: needs $missing"; exit 77
fi
fail=0
out=$(mktemp); trap 'rm -f "$out"' EXIT

# 1. the translator against the native code
if PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=prover "$PYTHON" -m q7prove.ir.check_translator --cc "$CLANG" --build "$BUILD" --lib "$Q7LIB" >"$out" 2>&1; then
    echo "ok: $(tail -n 1 "$out")"
else
    echo "FAIL: the translator disagrees with the native library"; tail -n 5 "$out"; fail=1
fi
mutlib=$BUILD/mutants/nan_polarity.so
if [ -f "$mutlib" ]; then
    if PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=prover "$PYTHON" -m q7prove.ir.check_translator --cc "$CLANG" --build "$BUILD" --lib "$mutlib" >"$out" 2>&1; then
        echo "FAIL: the translator check passes against the nan_polarity mutant library"; fail=1
    elif grep -q '^check-translator: o\(eq\|lt\|le\)_' "$out"; then
        echo "ok: the translator check fails against the nan_polarity mutant, naming an ordered leaf"
    else
        echo "FAIL: the check against the mutant failed without naming an ordered leaf"; tail -n 3 "$out"; fail=1
    fi
else
    echo "FAIL: no $mutlib (make check builds the mutants first)"; fail=1
fi

# 2. the full proof
json=$BUILD/prove-formal-test.json
if "${prove[@]}" --gaps prover/q7prove/ir/known-gaps.txt --json "$json" --quiet >"$out" 2>&1; then
    echo "ok: $(grep '^prove-formal:' "$out")"
else
    echo "FAIL: prove-formal exit $?"; tail -n 8 "$out"; fail=1
fi
leaves=$("$Q7PRED" list --json | "$PYTHON" -c 'import json, sys; print("\n".join(l["suffix"] for l in json.load(sys.stdin)["leaves"]))')
"$PYTHON" - "$json" prover/q7prove/ir/known-gaps.txt <<'PY' >"$out.rows" || { echo "FAIL: $json unreadable"; fail=1; }
import json, sys
rows = json.load(open(sys.argv[1]))['leaves']
gaps = {l.partition(': ')[0].strip() for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')}
for r in rows:
    ok = r['status'] == 'proven-ir' or (r['status'] == 'unproven' and r['leaf'] in gaps)
    print(r['leaf'], 'ok' if ok and isinstance(r['seconds'], (int, float)) else 'BAD:' + r['status'])
PY
if grep -q ' BAD:' "$out.rows"; then echo "FAIL: rows neither proven nor known gaps:"; grep ' BAD:' "$out.rows"; fail=1; fi
want=$(echo "$leaves" | grep . | sort)
got=$(awk '$1 !~ /^(q7_|vec:|vec-)/ {print $1}' "$out.rows" | sort)
if [ "$want" = "$got" ] && [ -n "$want" ]; then
    echo "ok: one row for each of the $(echo "$want" | wc -l) leaves of q7pred list"
else
    echo "FAIL: the rows are not the leaves of q7pred list"; diff <(echo "$want") <(echo "$got") | head; fail=1
fi
rm -f "$out.rows"
# q7pred list shows each leaf's status from the report
if "$Q7PRED" list --proofs "$json" --json | "$PYTHON" -c '
import json, sys
rows = json.load(sys.stdin)["leaves"]
sys.exit(0 if rows and all(r.get("proof") == "proven-ir" for r in rows) else 1)'; then
    echo "ok: q7pred list --proofs shows proven-ir for every leaf"
else
    echo "FAIL: q7pred list --proofs does not show every leaf proven-ir"; fail=1
fi
"$Q7PRED" list --proofs "$BUILD/no-such-report.json" >/dev/null 2>"$out"; rc=$?
if [ $rc -eq 2 ] && grep -q "cannot read '$BUILD/no-such-report.json': No such file or directory (make prove-formal writes one" "$out"
then echo "ok: a missing report is named, with the reason and the fix (exit 2)"
else echo "FAIL: list --proofs on a missing file: exit $rc"; cat "$out"; fail=1; fi
"$Q7PRED" list --proofs >/dev/null 2>"$out"; rc=$?
if [ $rc -eq 2 ] && grep -q "needs a file" "$out"; then echo "ok: --proofs without a file is a usage error"
else echo "FAIL: list --proofs alone: exit $rc"; fail=1; fi

# 3. each mutant makes the proof fail on exactly its leaves
. tests/support/mutant_expect.sh
for m in $MUTANT_NAMES; do
    "${prove[@]}" --only leaves --quiet --define "Q7_MUTANT_$(echo "$m" | tr a-z A-Z)" >"$out" 2>&1
    rc=$?
    want=$(eval echo "\$expect_$m" | tr ' ' '\n' | grep . | sort)
    got=$(sed -n 's/^  UNPROVEN \([a-z0-9_]*\):.*/\1/p' "$out" | sort)
    if [ $rc -ne 1 ]; then
        echo "FAIL: mutant $m: prove-formal exit $rc, want 1"; tail -n 3 "$out"; fail=1
    elif [ "$want" != "$got" ]; then
        echo "FAIL: mutant $m: the unproven leaves differ from the pitfall's"
        diff <(echo "$want") <(echo "$got") | sed 's/^/    /'; fail=1
    else
        echo "ok: mutant $m: the proof fails on exactly its $(echo "$want" | wc -l) leaves"
    fi
done
exit $fail
