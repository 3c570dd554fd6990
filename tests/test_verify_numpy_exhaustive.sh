#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The numpy oracle and the exhaustive corpus: by default numpy's cells of
# the exhaustive corpus are n/a (not run) and its header note says so, while
# it still checks the grid; named in --oracles it checks every exhaustive
# case. Needs numpy for $PYTHON: without it skipped, under CI=true a failure.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
PY=${PYTHON:-/usr/bin/python3}
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: $PY has no numpy; CI=true requires it"; exit 1; fi
    echo "skipped: $PY has no numpy (apt-get install python3-numpy)"; exit 77
fi
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
export PYTHON=$PY
"$Q7PRED" verify --corpus grid,exhaustive --leaf lt_1_8_8 --no-progress --json "$t/default.json" >"$t/default.txt" ||
    { cat "$t/default.txt"; echo "FAIL: the default run"; exit 1; }
"$Q7PRED" verify --corpus grid,exhaustive --leaf lt_1_8_8 --oracles sem,host,numpy --no-progress \
    --json "$t/named.json" >"$t/named.txt" || { cat "$t/named.txt"; echo "FAIL: the run naming numpy"; exit 1; }
grep -q '^  numpy: .*left out of the exhaustive corpus (n/a there) unless named in --oracles)$' "$t/default.txt" ||
    { head -5 "$t/default.txt"; echo "FAIL: the header does not say numpy is left out"; exit 1; }
if grep -q 'left out of the exhaustive' "$t/named.txt"; then echo "FAIL: named, yet the header says left out"; exit 1; fi
"$PY" - "$t/default.json" "$t/named.json" <<'PY' || { echo "FAIL: the reports"; exit 1; }
import json, sys
def cells(path):
    r = json.load(open(path))
    return {u["corpus"]: u["cells"]["numpy"] for u in r["units"]}, {u["corpus"]: u["cases"] for u in r["units"]}
d, cases = cells(sys.argv[1])
n, _ = cells(sys.argv[2])
assert d["exhaustive"]["state"] == "n/a" and d["exhaustive"]["checks"] == 0, d
assert d["grid"]["state"] == "ran" and d["grid"]["checks"] > 0, d
assert cases["exhaustive"] == 1 << 16, cases     # lt_1_8_8: two 8-bit operands
assert n["exhaustive"]["state"] == "ran" and n["exhaustive"]["checks"] == 1 << 16, n
assert n["grid"] == d["grid"], (n["grid"], d["grid"])
print("numpy: exhaustive n/a by default (grid %d checks), %d checks when named"
      % (d["grid"]["checks"], n["exhaustive"]["checks"]))
PY
echo "PASS: numpy left out of the exhaustive corpus unless named"
