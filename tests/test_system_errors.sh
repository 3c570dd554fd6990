#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every error that comes from the system names the file, the reason (the
# C library's strerror text) and, where the fix is known, the hint; a file
# given on the command line that cannot be used is bad input: exit 2, one
# line on stderr, nothing run. Each command that reads or writes a file is
# given a missing one, a directory, one in a directory it may not write
# and one it may not read (as the unprivileged user nobody, where setpriv
# can switch to it), and its output on /dev/full (exit 1: the output, not
# the input, failed).
set -u
. "$(dirname "$0")/support/check_lib.sh"
cd "$t" || exit 1
mkdir dir
small=(--oracles sem,host --corpus grid --leaf lt_1_8_8 --no-progress)

# refused TEXT ARGS...: exit 2, one line on stderr holding TEXT, no stdout
refused() {
    local want=$1 rc
    shift
    timeout 60 "$Q7PRED" "$@" >out 2>err </dev/null; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$want" err && [ ! -s out ]; then
        ok "q7pred $*: $want"
    else
        bad "q7pred $*: exit $rc, want 2 and '$want'; stderr: $(head -c 300 err)"
    fi
}
enoent="No such file or directory"

# ---- a missing file, a directory
refused "list: --proofs: cannot read 'build/prove-formal.json': $enoent (run make prove-formal first)" \
    list --proofs build/prove-formal.json
refused "cannot read 'none.json': $enoent (make prove-formal writes one, build/prove-formal.json; q7pred prove --json FILE another)" \
    list --proofs none.json
refused "list: --proofs: cannot read 'dir': Is a directory" list --proofs dir
refused "exec: cannot open 'none.q7': $enoent" exec none.q7
refused "exec: cannot open 'dir': Is a directory" exec dir
refused "merge: cannot read 'none.json': $enoent" merge none.json
refused "merge: cannot read 'dir': Is a directory" merge dir
refused "verify: testfloat: cannot read 'none.txt': $enoent" verify "${small[@]/grid/testfloat:f16_lt:none.txt}"
refused "verify: testfloat: cannot read 'dir': Is a directory" verify "${small[@]/grid/testfloat:f16_lt:dir}"
refused "verify: --resume: cannot read 'none.json': $enoent" verify "${small[@]}" --resume none.json
refused "verify: cannot read --abi 'none.json': $enoent" verify "${small[@]}" --lib "$Q7LIB" --abi none.json
refused "verify: cannot read library 'none.so': $enoent" verify "${small[@]}" --lib none.so
refused "verify: cannot read --preload 'none.so': $enoent" verify "${small[@]}" --lib "$Q7LIB" --preload none.so
refused "cannot read numpy oracle program 'none.py': $enoent" verify "${small[@]/sem,host/sem,numpy}" --numpy-oracle none.py
refused "verify: cannot write report 'nodir/r.json': $enoent" verify "${small[@]}" --json nodir/r.json
refused "verify: cannot write report 'dir': Is a directory" verify "${small[@]}" --markdown dir
refused "verify: --checkpoint: cannot write 'nodir/ck.json.lock': $enoent" verify "${small[@]}" --checkpoint nodir/ck.json
refused "verify: --checkpoint: cannot write 'dir': Is a directory" verify "${small[@]}" --checkpoint dir
refused "probe: cannot load library 'none.so': $enoent" probe --lib none.so
refused "probe: cannot write JSON file 'nodir/p.json': $enoent" probe --lib "$Q7LIB" --json nodir/p.json
refused "bench: cannot write --json 'nodir/b.json': $enoent" bench --quick --json nodir/b.json
refused "call: cannot load library 'none.so': $enoent" call --lib none.so lt_1_8_8 1 2

# ---- permissions, as nobody (root reads and writes anything)
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ] && setpriv --reuid=65534 --regid=65534 --clear-groups true \
        2>/dev/null; then
    mkdir ro && chmod 555 ro
    printf 'v0 = nxf16 all 1.0\n' >secret.q7 && chmod 000 secret.q7
    chmod 755 "$t"
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    nobody_refused() { # TEXT ARGS...
        local want=$1 rc
        shift
        as_nobody timeout 60 "$Q7PRED" "$@" >out 2>err </dev/null; rc=$?
        if [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$want" err; then ok "as nobody: q7pred $*: $want"
        else bad "as nobody: q7pred $*: exit $rc, want 2 and '$want'; stderr: $(head -c 300 err)"; fi
    }
    # the tools must be reachable by nobody: the build tree is, where its
    # folders are world-readable; else these are not run
    if as_nobody "$Q7PRED" --version >/dev/null 2>&1; then
        nobody_refused "exec: cannot open 'secret.q7': Permission denied" exec secret.q7
        nobody_refused "verify: cannot write report 'ro/r.json': Permission denied" verify "${small[@]}" --json ro/r.json
        nobody_refused "verify: --checkpoint: cannot write 'ro/ck.json.lock': Permission denied" \
            verify "${small[@]}" --checkpoint ro/ck.json
        nobody_refused "probe: cannot write JSON file 'ro/p.json': Permission denied" probe --lib "$Q7LIB" --json ro/p.json
        check "nothing written into the read-only directory" "[ -z \"\$(ls -A ro)\" ]"
    else
        ok "permissions: skipped ($Q7PRED is not reachable by nobody)"
    fi
else
    ok "permissions: skipped (not root, or no setpriv)"
fi

# ---- output on /dev/full: exit 1, one line naming the reason
if [ -w /dev/full ]; then
    for argv in "list" "call lt_1_8_8 1 2" "demo" "help" "help verify" "verify ${small[*]}" \
                "probe --lib $Q7LIB --leaf lt_1_8_8"; do
        # shellcheck disable=SC2086
        "$Q7PRED" $argv >/dev/full 2>err; rc=$?
        check "q7pred $argv >/dev/full: exit 1, 'No space left on device'" \
            "[ $rc -eq 1 ] && [ \$(wc -l <err) -eq 1 ] && grep -q 'cannot write the output: No space left on device' err"
    done
fi
exit $fail
