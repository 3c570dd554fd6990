#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Other CPUs and the other byte order: the library, the CLI and every C test
# cross-compiled with Debian's gcc for aarch64 (little-endian) and s390x
# (big-endian), each in its own build dir (build/cross-<arch>; -O2 -Werror
# as always, without -g, which only slows the build), and run under
# qemu-user. On each target:
#   - every C test passes (one that exits 77 with a `skipped:` line is
#     listed as skipped; any other exit fails);
#   - `q7pred demo` prints the same bytes as the native CLI ($Q7PRED);
#   - `q7pred verify --oracles sem,host` passes on its default corpus, and
#     the host oracle reports the path that ran: portable (no SIMD path
#     exists off x86-64);
#   - every examples/*.q7 program prints its .expected text.
# Skipped (exit 77) where a cross gcc, its libc or qemu is missing; under
# CI=true that is a failure (.ci/run installs them). CROSS_TARGETS limits
# the targets (e.g. CROSS_TARGETS=s390x).
# slow: two cross-compiled trees, run under qemu-user (about 65 s)
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRCDIR"
NATIVE=${Q7PRED:-$SRCDIR/build/q7pred}

# arch | compiler | qemu | sysroot (QEMU_LD_PREFIX)
targets='aarch64|aarch64-linux-gnu-gcc|qemu-aarch64|/usr/aarch64-linux-gnu
s390x|s390x-linux-gnu-gcc|qemu-s390x|/usr/s390x-linux-gnu'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What is missing for one target, empty if nothing.
missing_for() { # compiler qemu
    local miss=
    command -v "$1" >/dev/null || miss="$miss $1"
    command -v "$2" >/dev/null || miss="$miss $2"
    if [ -z "$miss" ] && ! echo 'int main(void) { return 0; }' | "$1" -x c - -o "$tmp/probe" 2>/dev/null; then
        miss="$miss libc for $1"
    fi
    echo "$miss"
}

want=" ${CROSS_TARGETS:-aarch64 s390x} "
missing=
while IFS='|' read -r arch cc qemu root; do
    case "$want" in *" $arch "*) ;; *) continue ;; esac
    m=$(missing_for "$cc" "$qemu")
    [ -n "$m" ] && missing="$missing$m"
done <<<"$targets"
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: cross tools missing under CI:$missing (.ci/run installs them)"
        exit 1
    fi
    echo "skipped: cross tools missing:$missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user)"
    exit 77
fi
[ -x "$NATIVE" ] || { echo "FAIL: no native CLI at $NATIVE to compare with (run make first)"; exit 1; }
"$NATIVE" demo >"$tmp/demo.native" || { echo "FAIL: native $NATIVE demo"; exit 1; }

failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

while IFS='|' read -r arch cc qemu root <&3; do
    case "$want" in *" $arch "*) ;; *) continue ;; esac
    start=$SECONDS
    bdir=build/cross-$arch
    if ! make --no-print-directory -j2 BUILD="$bdir" CC="$cc" CFLAGS=-O2 lib cli tests </dev/null >"$tmp/make.$arch" 2>&1; then
        fail "$arch: the build failed"; tail -n 30 "$tmp/make.$arch"
        continue
    fi
    export QEMU_LD_PREFIX=$root
    # verify starts itself again for a library child: through the emulator
    export Q7PRED_EMULATOR=$(command -v "$qemu")
    run() { "$qemu" "$@" </dev/null; }

    passed=() skipped=() bad=()
    for t in "$bdir"/tests/test_*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        BUILD=$bdir Q7PRED=$SRCDIR/$bdir/q7pred Q7LIB=$SRCDIR/$bdir/libq7pred.so SRCDIR=$SRCDIR \
            timeout 600 "$qemu" "$t" </dev/null >"$tmp/$arch.$name" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
            passed+=("$name")
        elif [ $rc -eq 77 ] && tail -n 1 "$tmp/$arch.$name" | grep -q '^skipped: .'; then
            skipped+=("$name ($(tail -n 1 "$tmp/$arch.$name" | sed 's/^skipped: //'))")
        else
            bad+=("$name")
            fail "$arch: $name exited $rc"; grep -v '^qemu: uncaught target signal' "$tmp/$arch.$name" | tail -n 15 | sed 's/^/    /'
        fi
    done
    [ ${#passed[@]} -gt 0 ] || fail "$arch: no C test ran"

    if ! run "$bdir/q7pred" demo >"$tmp/demo.$arch" 2>"$tmp/demo.$arch.err"; then
        fail "$arch: q7pred demo exited non-zero: $(head -c 300 "$tmp/demo.$arch.err")"
    elif ! cmp -s "$tmp/demo.native" "$tmp/demo.$arch"; then
        fail "$arch: q7pred demo differs from the native output"; diff "$tmp/demo.native" "$tmp/demo.$arch" | head -20
    fi

    run "$bdir/q7pred" verify --oracles sem,host >"$tmp/verify.$arch" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! tail -n 1 "$tmp/verify.$arch" | grep -q '^PASS: '; then
        fail "$arch: q7pred verify --oracles sem,host exited $rc"; tail -n 15 "$tmp/verify.$arch"
    fi
    grep -qx '  host: portable' "$tmp/verify.$arch" || fail "$arch: verify does not report the host path portable"

    for prog in examples/*.q7; do
        [ -f "${prog%.q7}.expected" ] || continue
        run "$bdir/q7pred" exec "$prog" >"$tmp/exec.$arch" 2>/dev/null || true
        cmp -s "$tmp/exec.$arch" "${prog%.q7}.expected" || fail "$arch: q7pred exec $prog differs from its .expected"
    done

    echo "$arch ($qemu): ${#passed[@]} C tests passed, ${#skipped[@]} skipped, ${#bad[@]} failed; demo, verify sem,host and examples checked ($((SECONDS - start)) s with the build)"
    echo "  passed: ${passed[*]}"
    for s in "${skipped[@]}"; do echo "  skipped: $s"; done
    [ ${#bad[@]} -eq 0 ] || echo "  failed: ${bad[*]}"
done 3<<<"$targets"

echo "test_cross: $failed failed"
[ "$failed" -eq 0 ]
