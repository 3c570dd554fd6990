#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every source file names its licence in one SPDX line, and LICENSE is the
# BSD 3-Clause text that line refers to.
set -u
cd "${SRCDIR:-.}"
tag='SPDX-License-Identifier: BSD-3-Clause'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files)
else
    files=$(find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
missing=0 checked=0
while read -r f; do
    case "$f" in
        *.c|*.h|*.def|*.py|*.sh|*.mk|Makefile|.ci/run|*.toml|*.flags|*.pc.in|Dockerfile|*.cmake.in) ;;
        *) continue ;;
    esac
    [ -f "$f" ] || continue
    checked=$((checked + 1))
    # the line sits at the top: first line, or second after a #! line
    head -n 2 "$f" | grep -q "$tag" || { echo "no licence line at the top of $f"; missing=$((missing + 1)); }
done <<< "$files"
grep -q 'Redistribution and use in source and binary forms' LICENSE &&
grep -q 'Neither the name of the copyright holder nor the names of its' LICENSE ||
    { echo "LICENSE is not the BSD 3-Clause text"; missing=$((missing + 1)); }
echo "$checked files checked, $missing problems"
[ "$checked" -gt 100 ] && [ "$missing" -eq 0 ]
