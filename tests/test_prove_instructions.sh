#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The binary prover's instruction table (prover/q7prove/x86/table.py, and the models it names): every
# model at every width, one instruction at a time on edge and random
# registers, flags and memory, against unicorn and the CPU itself, on
# numbers and on z3 terms (python3 -m q7prove.x86.check), with the BMI,
# SSE4, AVX2, F16C and AVX-512 forms of x86/check_forms.py (on the CPU: a
# form needing a feature it lacks is listed, not run), each form an
# encoding the table (x86/table.py, or x86/evex.py's for EVEX and opmask)
# accepts that capstone (or x86/evex.py) and objdump read alike, every table
# mnemonic exercised by a form; and the check shown able to fail: a model
# with its subtract's OF wrong, one whose writemask merges where it zeroes,
# must disagree, a table row no form exercises and a form's generator
# deleted must each fail, naming the mnemonic; and every instruction of the
# library's own code that the table accepts read alike by the table,
# capstone and objdump (--sweep).
# Needs gcc, objdump, python3-z3, python3-capstone and python3-unicorn:
# without them a SKIP, but under CI=true a failure.
# slow: 20,000 instruction comparisons against unicorn and the CPU (an
# edge and a random state per form, each with numbers and with z3 terms),
# 32,000 instructions of the library read by three decoders (about 45 s)
set -u
cd "$SRCDIR"
if ! "$PYTHON" -c 'import z3, capstone, unicorn' 2>/dev/null || ! command -v gcc >/dev/null ||
   ! command -v objdump >/dev/null; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: python3-z3/python3-capstone/python3-unicorn, gcc or objdump missing under CI"; exit 1
    fi
    echo "skipped: needs gcc, objdump, python3-z3, python3-capstone and python3-unicorn"; exit 77
fi
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=prover "$PYTHON" -m q7prove.x86.check --cases 2 >"$tmp/out" 2>&1; then
    echo "ok: $(tail -n 1 "$tmp/out")"
else
    echo "FAIL: the instruction models disagree"; tail -n 20 "$tmp/out"; fail=1
fi
# every instruction of the library's code the table accepts, read alike by the table, capstone and objdump
if PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=prover "$PYTHON" -m q7prove.x86.check --sweep "$Q7LIB" >"$tmp/out" 2>&1 &&
   tail -n 1 "$tmp/out" | grep -Eq ': [0-9]+ instructions, [1-9][0-9]* of them encodings the table accepts, 0 read differently by objdump$'; then
    echo "ok: $(tail -n 1 "$tmp/out")"
else
    echo "FAIL: the table, capstone and objdump read the library's code differently"; tail -n 5 "$tmp/out"; fail=1
fi
# the same check on a copy of the table whose sub/cmp/neg overflow flag is wrong
mkdir "$tmp/mutant"; cp -r prover/q7prove "$tmp/mutant/"; rm -rf "$tmp/mutant/q7prove/"*/__pycache__
sed -i 's/bv.band(bv.bxor(msb(a, w), msb(b, w)), bv.bxor(msb(r, w), msb(a, w)))/bv.band(bv.bxor(msb(a, w), msb(b, w)), bv.bxor(msb(r, w), msb(b, w)))/' \
    "$tmp/mutant/q7prove/x86/semantics.py"
if cmp -s prover/q7prove/x86/semantics.py "$tmp/mutant/q7prove/x86/semantics.py"; then
    echo "FAIL: the mutant's edit did not apply"; fail=1
elif PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$tmp/mutant" "$PYTHON" -m q7prove.x86.check --only sub --only cmp --only neg >"$tmp/out" 2>&1; then
    echo "FAIL: the check passes a wrong overflow flag"; fail=1
elif grep -q ' OF: model ' "$tmp/out"; then
    echo "ok: a wrong overflow flag is caught ($(grep -c ' OF: model ' "$tmp/out") forms)"
else
    echo "FAIL: the mutant failed without naming OF"; tail -n 3 "$tmp/out"; fail=1
fi
# a row no form exercises, and a form's generator deleted: the check fails naming each
mkdir "$tmp/unexercised"; cp -r prover/q7prove "$tmp/unexercised/"; rm -rf "$tmp/unexercised/q7prove/"*/__pycache__
sed -i "s|^    Row('wait', scalar_fp.wait, '9b'),|&\n    Row('cmc', control.nop, 'f5'),|" "$tmp/unexercised/q7prove/x86/table.py"
mkdir "$tmp/ungenerated"; cp -r prover/q7prove "$tmp/ungenerated/"; rm -rf "$tmp/ungenerated/q7prove/"*/__pycache__
sed -i "/^    add('stmxcsr dword ptr \[rsi + 8\]')\$/d" "$tmp/ungenerated/q7prove/x86/check_forms_base.py"
for m in unexercised:cmc ungenerated:stmxcsr; do
    dir=${m%%:*} name=${m#*:}
    if cmp -s prover/q7prove/x86/table.py "$tmp/$dir/q7prove/x86/table.py" &&
       cmp -s prover/q7prove/x86/check_forms_base.py "$tmp/$dir/q7prove/x86/check_forms_base.py"; then
        echo "FAIL: the $dir mutant's edit did not apply"; fail=1
    elif PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$tmp/$dir" "$PYTHON" -m q7prove.x86.check --coverage >"$tmp/out" 2>&1; then
        echo "FAIL: the check passes with $name exercised by no form"; fail=1
    elif grep -q "^check-instructions: the table's $name (.*) is exercised by no form\$" "$tmp/out"; then
        echo "ok: $(grep "the table's $name " "$tmp/out" | head -n 1)"
    else
        echo "FAIL: the $dir mutant failed without naming $name"; tail -n 3 "$tmp/out"; fail=1
    fi
done
# and on a copy whose AVX-512 writemask merges where the instruction zeroes
cp prover/q7prove/x86/avx512.py "$tmp/avx512.py"
sed -i 's/            merge = 0 if i.zeroing else bv.extract(m.get(d), rbits - 1, 0, 8 \* d.size)/            merge = bv.extract(m.get(d), rbits - 1, 0, 8 * d.size)/' \
    "$tmp/mutant/q7prove/x86/avx512.py"
if cmp -s "$tmp/avx512.py" "$tmp/mutant/q7prove/x86/avx512.py"; then
    echo "FAIL: the writemask mutant's edit did not apply"; fail=1
elif ! grep -qw avx512bw /proc/cpuinfo; then
    echo "note: this CPU lacks AVX-512BW: the writemask mutant is not run"
elif PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$tmp/mutant" "$PYTHON" -m q7prove.x86.check --only vmovdqu32 --only vpaddq >"$tmp/out" 2>&1; then
    echo "FAIL: the check passes a writemask that merges where it zeroes"; fail=1
elif grep -q '{z}.*: native .* zmm[0-9]*: model ' "$tmp/out"; then
    echo "ok: a writemask that merges where it zeroes is caught ($(grep -c '{z}.*: native' "$tmp/out") forms)"
else
    echo "FAIL: the writemask mutant failed without naming a zeroed form"; tail -n 3 "$tmp/out"; fail=1
fi
exit $fail
