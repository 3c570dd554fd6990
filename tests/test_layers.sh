#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The include rule (tests/layers.sh) holds for this tree, and the check
# itself catches an upward include, a cross include between tool folders,
# a tool including a library folder's private header, an unknown folder
# and a public header that names a source path.
set -u
cd "$SRCDIR"
fail=0
bash tests/layers.sh "$SRCDIR" || { echo "FAIL: the tree breaks the include rule"; fail=1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect_caught() { # what, then the text the check must print
    local what=$1 text=$2 out
    if out=$(bash tests/layers.sh "$tmp/t" 2>&1); then
        echo "FAIL: $what passed the check"; fail=1
    elif ! grep -qF -- "$text" <<<"$out"; then
        echo "FAIL: $what: expected '$text' in:"; echo "$out"; fail=1
    else echo "ok: $what caught"; fi
}
fresh() { rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r include src "$tmp/t/"; }

fresh; echo '#include "verify/verify.h"' >> "$tmp/t/src/model/api.c"
expect_caught "model including verify" "src/model/api.c"
fresh; echo '#include "cli/cli.h"' >> "$tmp/t/src/host/host.c"
expect_caught "host including cli" "reaches from host up or across to cli"
fresh; echo '#include "prog/program.h"' >> "$tmp/t/src/verify/engine/engine.c"
expect_caught "verify including prog (across, from a subfolder)" "reaches from verify up or across to prog"
fresh; echo '#include "probe/probe.h"' >> "$tmp/t/src/util/process.c"
expect_caught "util including probe" "reaches from util up or across to probe"
fresh; echo '#include "verify.h"' >> "$tmp/t/src/verify/oracles/oracle_sem.c"
expect_caught "a bare include of a file that is not beside its includer" "names no file of the tree"
fresh; echo '#include "vec/instantiate.h"' >> "$tmp/t/src/bench/throughput.c"
expect_caught "a tool including a library-private header" "is private to vec"
fresh; mkdir "$tmp/t/src/attic"; echo 'int x;' > "$tmp/t/src/attic/a.c"
expect_caught "an unknown folder" "src/attic/ is not a known layer"
fresh; echo '/* see src/verify/engine.c */' >> "$tmp/t/include/q7pred.h"
expect_caught "a public header naming a source path" "include/q7pred.h"
fresh; echo '#include "no_such.h"' >> "$tmp/t/src/abi/registry.c"
expect_caught "an include of no file" "names no file of the tree"
exit $fail
