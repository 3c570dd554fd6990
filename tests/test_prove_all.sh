#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove --all (docs/proofs.md "The clean API", "The vector level"):
# every exported function of a library after its leaves.
#   1. build/libq7pred.so, whole: every leaf proven-binary as without
#      --all; every operation of include/q7pred_ops.def and every
#      instruction of include/q7pred_vecops.def (both read here through the
#      C preprocessor) proven-binary, each instruction on all four paths
#      (avx512, avx2, portable, reference) with its kernel named from
#      .symtab (kernel_<mnemonic>) and its dispatch checked; every other
#      q7_ export (nm -D) no-obligation with a reason; the vector level's
#      metadata and path control (q7v_op_*, q7v_select, q7v_path*)
#      no-obligation, its lane and field accessors and the merge
#      (q7v_lane, q7v_set_lane, q7v_field, q7v_set_field, q7v_merge_vbool,
#      q7v_merge) proven-binary, its calls by op (q7v_do_*) proven-binary
#      on four paths and their dispatch, their rows together the
#      instructions of q7pred_vecops.def; nothing exported left out; every
#      function with an obligation proven-binary and the exit status 0; the report
#      read back as a proof file (list --proofs, verify --proofs, diff);
#   2. planted bugs (tests/prove/api_planted.c and api_planted_abi.S, built
#      here): q7_f32_lt wrong for -0 < +0, q7_neq returning 2 in al, and
#      q7_f16_un reading a uint16_t argument's bit 16 (the caller's
#      garbage) are refuted, each counterexample called natively (ctypes)
#      and the result compared with the spec's value computed here (Python's
#      IEEE float compare, struct); controls stay proven-binary: q7_f32_le,
#      and q7_eq with garbage in bits 8-31 of eax (a _Bool return is al);
#   3. a restarted prover continues with the functions not yet answered
#      (a stand-in prover that hangs in one function);
#   4. usage errors: --all with --leaf, --all with --dry-run (exit 2);
#      without --all a report has no function rows.
# slow: proves the whole of build/libq7pred.so: 86 leaves, 47 operations, 72 vector instructions on four paths, the ten calls by op (about 330 s CPU)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
CC=${CC:-cc}
prove_test_begin
command -v nm >/dev/null || { echo "skipped: needs nm (binutils)"; exit 77; }

# ---- 1. the library
"$Q7PRED" prove --lib "$Q7LIB" --all --json "$tmp/all.json" >"$tmp/all.out" 2>"$tmp/all.err"
rc=$?
"${CLANG:-$CC}" -E -P -x c -I include - >"$tmp/ops" <<'C' || bad "cannot preprocess include/q7pred_ops.def"
#include "q7pred_ops.def"
#define OP(name, ...) @@q7_##name
Q7_OPERATIONS(OP)
C
tr '@' '\n' <"$tmp/ops" | awk 'NF {print $1}' | sort -u >"$tmp/ops.list"
"${CLANG:-$CC}" -E -P -x c -I include - >"$tmp/vops" <<'C' || bad "cannot preprocess include/q7pred_vecops.def"
#define VOP(mnemonic, ...) @@q7v_##mnemonic
#include "q7pred_vecops.def"
C
tr '@' '\n' <"$tmp/vops" | awk 'NF {print $1}' | sort -u >"$tmp/vops.list"
nm -D --defined-only "$Q7LIB" | awk '$2 == "T" || $2 == "i" {print $3}' | sort -u >"$tmp/exports"
"$PYTHON" - "$tmp/all.json" "$tmp/ops.list" "$tmp/exports" "$rc" "$tmp/vops.list" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
ops = set(open(sys.argv[2]).read().split())
exports = set(open(sys.argv[3]).read().split())
rc = int(sys.argv[4])
vops = set(open(sys.argv[5]).read().split())
bad = []
leaves = r['leaves']
nleaves = len([e for e in exports if e.startswith('module__xdref_')])
if len(leaves) != nleaves or any(x['status'] != 'proven-binary' for x in leaves):
    bad.append('leaves: %d rows for %d exported, not all proven-binary' % (len(leaves), nleaves))
if any('cpu_features' in x for x in leaves):
    bad.append('a leaf of the default build (x86-64, no -march) assumes CPU features: %s'
               % [x['leaf'] for x in leaves if 'cpu_features' in x][:3])
if 'native check on ' not in r.get('prover', ''):
    bad.append('the report does not name the CPU the native check ran on: %r' % r.get('prover'))
fn = {x['function']: x for x in r.get('functions', [])}
if len(ops) < 40:
    bad.append('only %d operations read from q7pred_ops.def' % len(ops))
for o in sorted(ops):
    if fn.get(o, {}).get('status') != 'proven-binary':
        bad.append('%s: %s' % (o, fn.get(o)))
if len(vops) < 70 or not vops <= exports:
    bad.append('%d instructions read from q7pred_vecops.def, %d not exported' % (len(vops), len(vops - exports)))
for v in sorted(vops):
    x = fn.get(v, {})
    # "avx512: proven-binary, kernel_<m> at 0x...; avx2: ..." and "2464 cases: avx2 172, ..."
    paths = dict(p.split(': ', 1) for p in x.get('kernels', '').split('; ') if ': ' in p)
    proven = all(p.startswith('proven-binary, kernel_%s at 0x' % v[4:]) for p in paths.values())
    cases = x.get('dispatch_reach', '').split(' cases: ')
    reached = len(cases) == 2 and int(cases[0]) > 0 and \
        sum(int(n.split()[1]) for n in cases[1].split(', ') if n) == int(cases[0])
    if x.get('status') != 'proven-binary' or set(paths) != {'avx512', 'avx2', 'portable', 'reference'} or \
       not proven or not reached:
        bad.append('%s: %s (%s; %s; %s)' % (v, x.get('status'), str(x.get('reason', ''))[:300], x.get('kernels'),
                                           x.get('dispatch_reach')))
others = exports - ops - vops - {e for e in exports if e.startswith('module__xdref_')}
by_op = set()
control = ('q7v_op_', 'q7v_select', 'q7v_path')
accessors = ('q7v_lane', 'q7v_set_lane', 'q7v_field', 'q7v_set_field', 'q7v_merge_vbool', 'q7v_merge')
for e in sorted(others):
    x = fn.get(e)
    if x is None:
        bad.append('%s exported but not listed' % e)
    elif e.startswith(control):
        if x['status'] != 'no-obligation' or not x.get('reason'):
            bad.append('%s: %s, not no-obligation with a reason' % (e, x))
    elif e in accessors:
        if x['status'] != 'proven-binary':
            bad.append('%s: %s, not proven-binary' % (e, x))
    elif e.startswith('q7v_do_'):
        # "N rows (m1 m2 ...) x 4 paths": the rows the library's own table gives this call by op
        kern = x.get('kernels', '')
        if x['status'] != 'proven-binary' or not kern.endswith(' x 4 paths') or ' cases: ' not in x.get('dispatch_reach', ''):
            bad.append('%s: %s' % (e, x))
        by_op |= set(kern.split('(', 1)[-1].split(')')[0].split())
    elif e.startswith('q7v_'):
        bad.append('%s: a vector-level export no family answers for: %s' % (e, x))
    elif x['status'] != 'no-obligation' or not x.get('reason'):
        bad.append('%s: %s, not no-obligation with a reason' % (e, x))
if any(x['status'] == 'proven-binary' for e, x in fn.items() if e not in ops and not e.startswith('q7v_')):
    bad.append('a function with no obligation is proven-binary')
if set(fn) - exports - ops:
    bad.append('rows for names not exported: %s' % sorted(set(fn) - exports - ops))
if by_op != {v[4:] for v in vops}:
    bad.append('the calls by op cover rows %s, not the instructions of q7pred_vecops.def (%s)'
               % (sorted(by_op ^ {v[4:] for v in vops})[:6], 'differing'))
short = [e for e, x in fn.items() if x['status'] not in ('proven-binary', 'no-obligation', 'absent')]
if rc != 0 or short:
    bad.append('exit %d with %d functions short of proven-binary: %s' % (rc, len(short), short[:4]))
s = r.get('function_summary', {})
if sum(s.values()) != len(fn) or s.get('proven-binary', 0) < len(ops):
    bad.append('function_summary %s' % s)
print('\n'.join('FAIL: ' + b for b in bad) or
      'ok: %d leaves, %d operations and %d vector instructions (four paths each) proven-binary, %d other exports '
      'listed' % (len(leaves), len(ops), len(vops), len(others)))
sys.exit(1 if bad else 0)
PY
grep -q "^[0-9]* functions: " "$tmp/all.out" && ok "summary line of the functions" || bad "no functions summary line"
# the report as a proof file (make prove-formal writes it): list, verify --html and diff read it
"$Q7PRED" list --proofs "$tmp/all.json" --json | "$PYTHON" -c '
import json, sys
rows = json.load(sys.stdin)["leaves"]
sys.exit(0 if rows and all(r.get("proof") == "proven-binary" for r in rows) else 1)' &&
    ok "list --proofs reads the --all report: every leaf proven-binary" || bad "list --proofs of the --all report"
(cd "$tmp" && "$Q7PRED" verify --lib "$Q7LIB" --corpus grid --leaf lt_1_8_8 --oracles sem --no-progress --quiet \
    --html v.html --proofs all.json >/dev/null 2>&1); rc=$?
sha=$(sha256sum <"$(readlink -f "$Q7LIB")" | cut -c1-64)
[ $rc -eq 0 ] && grep -q "(SHA-256 <code>$sha</code>), the library this report verified" "$tmp/v.html" &&
    grep -q '<td class="good">proven-binary' "$tmp/v.html" &&
    ok "verify --proofs: the --all report shown as of the library verified, proven-binary green" ||
    bad "verify --proofs of the --all report: exit $rc"
"$Q7PRED" diff "$tmp/all.json" "$tmp/all.json" >"$tmp/d.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^NO REGRESSION: 0 proofs lost, 0 newly refuted, .*, $(grep -c . <<<"$(statuses "$tmp/all.json")") the same$" "$tmp/d.out" &&
    ok "diff reads the --all report" || bad "diff of the --all report: exit $rc, $(tail -n 1 "$tmp/d.out")"

# ---- 2. planted bugs
"$CC" -O2 -shared -fPIC -Wall -Wextra -Werror -o "$tmp/planted.so" tests/prove/api_planted.c \
    tests/prove/api_planted_abi.S || bad "cannot build planted.so"
"$Q7PRED" prove --lib "$tmp/planted.so" --all --json "$tmp/planted.json" >"$tmp/planted.out" 2>&1; rc=$?
[ $rc -eq 1 ] && ok "planted: exit 1" || bad "planted: exit $rc"
"$PYTHON" - "$tmp/planted.json" "$tmp/planted.so" <<'PY' || fail=1
import ctypes, json, math, struct, sys
r = json.load(open(sys.argv[1]))
fn = {x['function']: x for x in r['functions']}
lib = ctypes.CDLL(sys.argv[2])
bad = []

def native(name, *args):
    f = getattr(lib, name)
    f.argtypes = [ctypes.c_uint32] * len(args)
    f.restype = ctypes.c_uint32
    return f(*args) & 0xff          # a _Bool return is al

def f32(x):
    return struct.unpack('<f', struct.pack('<I', x))[0]

def f16(x):
    return struct.unpack('<e', struct.pack('<H', x & 0xffff))[0]

spec = {'q7_f32_lt': lambda a, b: int(f32(a) < f32(b)),
        'q7_neq': lambda a, b: int(a != b),
        'q7_f16_un': lambda a, b: int(math.isnan(f16(a)) or math.isnan(f16(b)))}
for name, rule in spec.items():
    x = fn.get(name, {})
    ce = x.get('counterexample', {})
    if x.get('status') != 'refuted' or 'a' not in ce or 'b' not in ce:
        bad.append('%s: %s' % (name, x))
        continue
    a, b = int(ce['a'], 16), int(ce['b'], 16)
    # the caller's upper bits where the counterexample needs them (a uint16_t's bits 16-31 here)
    wa = a | (int(ce.get('high_a', '0'), 16) << 16 if name == 'q7_f16_un' else 0)
    wb = b | (int(ce.get('high_b', '0'), 16) << 16 if name == 'q7_f16_un' else 0)
    got, want = native(name, wa & 0xffffffff, wb & 0xffffffff), rule(a, b)
    if got == want:
        bad.append('%s: the native call on %#x, %#x gives %d, as the spec: not a bug shown' % (name, wa, wb, got))
    elif int(x.get('expected', {}).get('return', '-1'), 16) != want:
        bad.append('%s: the report\'s spec value %s, the rule here %d' % (name, x.get('expected'), want))
    elif int(x.get('predicted', {}).get('return') or '-1', 16) != got:
        bad.append('%s: predicted %s, the native call %d' % (name, x.get('predicted'), got))
    else:
        print('ok: %s refuted, a=%#x b=%#x: native %d, spec %d' % (name, wa, wb, got, want))
for name in ('q7_f32_le', 'q7_eq'):
    if fn.get(name, {}).get('status') != 'proven-binary':
        bad.append('control %s: %s' % (name, fn.get(name)))
# the controls are right natively on their edges too
if native('q7_f32_le', 0x80000000, 0) != 1 or native('q7_eq', 5, 5) != 1 or native('q7_eq', 5, 6) != 0:
    bad.append('a control is wrong natively')
if fn.get('q7_version', {}).get('status') != 'no-obligation':
    bad.append('q7_version: %s' % fn.get('q7_version'))
v = fn.get('q7v_planted', {})
if v.get('status') == 'proven-binary' or not v.get('reason'):
    bad.append('q7v_planted: %s' % v)
if fn.get('q7_sign_bias', {}).get('status') != 'absent':
    bad.append('q7_sign_bias (not exported): %s' % fn.get('q7_sign_bias'))
print('\n'.join('FAIL: ' + b for b in bad) or 'ok: planted library verdicts')
sys.exit(1 if bad else 0)
PY

# ---- 3. a restart continues with the functions not answered
cat >"$tmp/stand-in" <<'SH'
#!/usr/bin/env bash
# a prover that proves no leaf and hangs in q7_b unless told it is done
done_b=0 prev=
for a in "$@"; do [ "$prev" = --done ] && [ "$a" = q7_b ] && done_b=1; prev=$a; done
echo "{\"prover\": \"stand-in\", \"leaves\": 0, \"functions\": $((3 - done_b - done_b))}"
if [ $done_b = 0 ]; then
    echo '{"start": "q7_a"}'; echo '{"function": "q7_a", "status": "proven-binary", "seconds": 0.1}'
    echo '{"start": "q7_b"}'; exec sleep 60
fi
echo '{"start": "q7_c"}'; echo '{"function": "q7_c", "status": "no-obligation", "seconds": 0, "reason": "r"}'
SH
chmod +x "$tmp/stand-in"
# its leaves are none: run it on the planted library, whose leaves are absent anyway
timeout 60 "$Q7PRED" prove --lib "$tmp/planted.so" --all --timeout 1 --python "$tmp/stand-in" --json "$tmp/re.json" \
    >"$tmp/re.out" 2>&1; rc=$?
"$PYTHON" - "$tmp/re.json" "$rc" <<'PY' || { fail=1; cat "$tmp/re.out"; }
import json, sys
r = json.load(open(sys.argv[1]))
fn = [(x['function'], x['status']) for x in r['functions']]
want = [('q7_a', 'proven-binary'), ('q7_b', 'unproven'), ('q7_c', 'no-obligation')]
b = [x for x in r['functions'] if x['function'] == 'q7_b'][0]
ok = fn == want and 'timeout' in b.get('reason', '') and sys.argv[2] == '1'
print(('ok: restart after a hung function: %s' if ok else 'FAIL: restart: %s exit ' + sys.argv[2]) % fn)
sys.exit(0 if ok else 1)
PY

# ---- 4. usage
"$Q7PRED" prove --lib "$Q7LIB" --all --leaf lt_1_8_8 >"$tmp/u.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- "--all.*--leaf" "$tmp/u.out" && ok "--all --leaf: usage error" ||
    { bad "--all --leaf: exit $rc"; cat "$tmp/u.out"; }
"$Q7PRED" prove --lib "$Q7LIB" --all --dry-run >"$tmp/u.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- "--all" "$tmp/u.out" && ok "--all --dry-run: usage error" ||
    { bad "--all --dry-run: exit $rc"; cat "$tmp/u.out"; }
"$Q7PRED" prove --lib "$Q7LIB" --leaf lt_1_8_8 --json "$tmp/one.json" >/dev/null 2>&1
"$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if "functions" not in r and "function_summary" not in r and len(r["summary"]) == 4 else 1)' "$tmp/one.json" &&
    ok "without --all: no function rows, the four leaf statuses" || bad "a report without --all has function rows"
exit $fail
