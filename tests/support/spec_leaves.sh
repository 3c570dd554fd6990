# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the shell tests: the leaves of DECISIONS.md §1 as
# tests/support/spec_leaves.h writes them out (one `    X(GROUP, suffix, PROVENANCE)`
# line each), so that no test spells the leaf count.
#   SPEC_LEAVES        the suffixes, in the table's order
#   SPEC_LEAF_COUNT    how many
#   spec_group GROUP   the suffixes of one group, a line each
_spec_leaves_h="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/spec_leaves.h"
mapfile -t SPEC_LEAVES < <(sed -n 's/^ *X([A-Z_]*, \([a-z0-9_]*\), [A-Z]*).*/\1/p' "$_spec_leaves_h")
SPEC_LEAF_COUNT=${#SPEC_LEAVES[@]}
spec_group() { sed -n "s/^ *X($1, \\([a-z0-9_]*\\), [A-Z]*).*/\\1/p" "$_spec_leaves_h"; }
