#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Run-time dispatch on CPUs this machine is not: the batch, vector and host
# tests run under qemu-x86_64 (user mode, TCG: AVX2, F16C, BMI2, POPCNT,
# never AVX-512) with CPU models that lack one extension each. Each path must be offered
# exactly when the emulated CPUID has every extension it uses, and every
# path that runs must still equal the scalar leaf. (TCG executes AVX-512 as
# SIGILL, but runs BMI2/F16C/POPCNT even when their CPUID bit is off, so
# for those the check is the selection lines.) Skipped without qemu-user.
# slow: the library under qemu CPU models without AVX-512 and AVX2 (about 20 s)
set -u
BUILD=${BUILD:-build}
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRCDIR"
QEMU=$(command -v qemu-x86_64 || true)
if [ -z "$QEMU" ]; then
    echo "skipped: qemu-x86_64 not installed (apt-get install qemu-user)"
    exit 77
fi
fails=0 checks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run CPU TEST: the test's stdout in $tmp/out; fails on a non-zero exit
run() {
    "$QEMU" -cpu "$1" "$BUILD/tests/$2" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    checks=$((checks + 1))
    if [ $rc -ne 0 ]; then
        echo "FAIL: $2 on -cpu $1: exit $rc"; grep -v 'qemu-x86_64: warning' "$tmp/err" | head -5
        fails=$((fails + 1))
    fi
}
# has CPU TEST LINE: the test printed LINE
has() {
    checks=$((checks + 1))
    grep -qxF "$3" "$tmp/out" || { echo "FAIL: $2 on -cpu $1: no line '$3'"; cat "$tmp/out"; fails=$((fails + 1)); }
}

# CPU model | batch and vector paths that must run (the others must be
# refused) | host SIMD path that must run ("-": none)
while IFS='|' read -r cpu batch host; do
    run "$cpu" test_batch_kernels
    for p in avx512 avx2 portable; do
        case " $batch " in
        *" $p "*) has "$cpu" test_batch_kernels "path $p: checked" ;;
        *) has "$cpu" test_batch_kernels "path $p: not supported by this CPU, skipped" ;;
        esac
    done
    run "$cpu" test_vec_paths
    for p in avx512 avx2 portable; do
        case " $batch " in
        *" $p "*) has "$cpu" test_vec_paths "path $p: checked" ;;
        *) has "$cpu" test_vec_paths "path $p: not supported by this CPU, skipped" ;;
        esac
    done
    run "$cpu" test_verify_sweep
    has "$cpu" test_verify_sweep "no AVX-512 host path: the sweeps must decline"
    if [ "$host" = - ]; then
        run "$cpu" test_host_simd
        has "$cpu" test_host_simd "no SIMD host path on this CPU: only selection was checked"
    elif [ "$cpu" = max ]; then    # the whole host test once (slow under TCG)
        run "$cpu" test_host_simd
        has "$cpu" test_host_simd "host path avx512: not supported by this CPU, skipped"
        has "$cpu" test_host_simd "host path $host: equal to portable"
    fi
done <<'EOF'
max|avx2 portable|avx2+f16c
max,-bmi2|portable|avx2+f16c
max,-f16c|avx2 portable|-
max,-popcnt|portable|-
max,-avx2|portable|-
EOF

# the CLI: a vector program on a CPU without AVX-512 or AVX2
for cpu in max max,-avx2; do
    checks=$((checks + 1))
    if "$QEMU" -cpu "$cpu" "$BUILD/q7pred" exec examples/predicated_merge.q7 2>/dev/null |
        cmp -s - examples/predicated_merge.expected; then :; else
        echo "FAIL: q7pred exec on -cpu $cpu"; fails=$((fails + 1))
    fi
done

echo "test_batch_dispatch: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
