#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slow: one q7v_ function of every kind proven on all four paths from the machine code (about 70 s CPU)
# The vector level of the library as built, proven from its machine code
# (prover/q7prove/binary/vector.py): for every kind of instruction (the
# kinds the mnemonics derive to, binary/vecspec.py), its first function
# in q7pred_vecops.def (the fp compares through their _t kind, whose
# lanes are the compare's; classify is fp) is proven-binary on the
# avx512, avx2, portable and reference paths, its dispatch checked over
# every feature set, each path's kernel named from .symtab. `make
# prove-vector` proves every function the same way.
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! "$PYTHON" -c 'import unicorn' 2>/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: python3-unicorn missing under CI"; exit 1; fi
    echo "skipped: needs python3-unicorn"; exit 77
fi
fns=$(PYTHONPATH=prover "$PYTHON" -c '
from q7prove.binary import vecspec
pick = {}
for row in vecspec.table_rows("cc", "."):
    op = vecspec.derive(row[0])
    pick.setdefault(op.kind, op.mnemonic)
print(" ".join("q7v_" + m for m in pick.values()))')
[ "$(echo $fns | wc -w)" -ge 11 ] || { echo "FAIL: fewer than 11 kinds: $fns"; exit 1; }
args=()
for f in $fns; do args+=(--function "$f"); done
PYTHONPATH=prover "$PYTHON" -m q7prove.binary.vector --lib "$Q7LIB" --loader "$Q7PRED" --timeout 900 "${args[@]}" \
    > "$tmp/out.jsonl" 2> "$tmp/err" || { echo "FAIL: the prover failed: $(tail -3 "$tmp/err")"; exit 1; }
"$PYTHON" - "$tmp/out.jsonl" $fns <<'EOF' || fail=1
import json, sys
rows = {r['function']: r for r in (json.loads(l) for l in open(sys.argv[1])) if 'function' in r}
bad = 0
for f in sys.argv[2:]:
    r = rows.get(f)
    if r is None:
        print('FAIL: %s: no row' % f); bad = 1; continue
    paths = {p['path']: p for p in r.get('paths', [])}
    kernels = all(p.get('kernel', '').startswith('kernel_' + f[4:] + ' ') for p in paths.values())
    if r['status'] != 'proven-binary' or set(paths) != {'avx512', 'avx2', 'portable', 'reference'} or not kernels:
        print('FAIL: %s: %s (%s)' % (f, r['status'], r.get('reason', '')[:300])); bad = 1; continue
    print('ok: %s proven-binary on every path and its dispatch (%s s, %s s CPU)'
          % (f, r['seconds'], r.get('cpu_seconds')))
sys.exit(bad)
EOF
exit $fail
