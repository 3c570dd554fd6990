#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every model function a source names (q7m_<name>) is defined under that
# very name in src/lib/model/, so that `grep -n q7m_<name> src/` finds its
# body: none is built by token pasting.
set -u
cd "$SRCDIR"
fail=0
names=$(grep -rhoE '\bq7m_[a-z0-9_]+\b' src include | sort -u)
[ -n "$names" ] || { echo "FAIL: no q7m_ name found in src/ or include/"; exit 1; }
n=0
for name in $names; do
    n=$((n + 1))
    grep -qE "^static inline [a-z0-9_ ]+\b$name\(" src/lib/model/*.h ||
        { echo "FAIL: $name is named but no line of src/lib/model/ defines it"; fail=1; }
done
if grep -nE 'q7m_##|##_(un|eq|lt|le)\b' src/lib/model/*.h; then echo "FAIL: a model name built by token pasting"; fail=1; fi
[ $fail -eq 0 ] && echo "ok: the $n model functions the sources name are each defined by name in src/lib/model/"
exit $fail
