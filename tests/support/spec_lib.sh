# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the shell tests: where the spec is, and the two pieces of its
# section 10 that the tests use, cut out of the spec text at test time.
#   spec_require   sets SPEC to VAL-predicate-classify-compare.txt ($Q7_SPEC,
#                  else $SRCDIR/../shared/spec/); if it is not there, the
#                  test is skipped (exit 77, tests/harness.sh), or fails
#                  (exit 1) under CI=true, where the spec is required
#   spec_driver    the driver script, verbatim (from its `import ctypes` to
#                  the line before "Captured output")
#   spec_captured  the captured output, verbatim (blank edges trimmed)

spec_require() {
    SPEC=${Q7_SPEC:-${SRCDIR:-.}/../shared/spec/VAL-predicate-classify-compare.txt}
    [ -r "$SPEC" ] && return 0
    local why="spec not found: $SPEC (it lives in ../shared/spec beside the clone; set Q7_SPEC to its path)"
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $why; CI=true requires it" >&2
        exit 1
    fi
    echo "skipped: $why"
    exit 77
}

# Lines of section 10 from the first line matching `start` (kept if
# keep=yes) to the line before `stop`, blank lines at both ends trimmed.
spec_section10() { # start-regex stop-regex keep
    awk -v start="$1" -v stop="$2" -v keep="$3" '
        /^10\. Reproducible driver/ { in10 = 1; next }
        /^11\. / { in10 = 0 }
        in10 && !on && $0 ~ start { on = 1; if (keep != "yes") next }
        in10 && on && $0 ~ stop { exit }
        in10 && on { print }
    ' "$SPEC" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' | sed '/./,$!d'
}

spec_driver() { spec_section10 '^import ctypes' '^Captured output' yes; }
spec_captured() { spec_section10 '^Captured output' '^11\. ' no; }
