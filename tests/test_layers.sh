#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The include rule and the names' prefixes (tests/layers.sh) hold for this
# tree and its objects, and the check itself catches an upward include, a
# library file (src/lib) including a tools header (src/tools), a cross
# include between tool folders, a tool including a library folder's
# private header, an unknown folder (beside src/lib and src/tools, or in
# one of them: a library folder among the tools too), a source directly
# in src/lib, a public header that names a source path, a header declaring
# a name with another folder's prefix (a macro may only override a name
# that folder makes), an include guard of another folder, and an object
# defining a name without its folder's prefix.
set -u
cd "$SRCDIR"
fail=0
bash tests/layers.sh "$SRCDIR" "$SRCDIR/${BUILD:-build}/obj" ||
    { echo "FAIL: the tree or its objects break the rules"; fail=1; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect_caught() { # what, the text the check must print, [OBJDIR]
    local what=$1 text=$2 out
    if out=$(bash tests/layers.sh "$tmp/t" ${3:+"$3"} 2>&1); then
        echo "FAIL: $what passed the check"; fail=1
    elif ! grep -qF -- "$text" <<<"$out"; then
        echo "FAIL: $what: expected '$text' in:"; echo "$out"; fail=1
    else echo "ok: $what caught"; fi
}
fresh() { rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r include src "$tmp/t/"; }

fresh; echo '#include "verify/verify.h"' >> "$tmp/t/src/lib/model/api.c"
expect_caught "model including verify" "src/lib/model/api.c"
fresh; echo '#include "util/json.h"' >> "$tmp/t/src/lib/batch/batch.c"
expect_caught "a library file including a tools header" \
    "src/lib/batch/batch.c:$(wc -l < "$tmp/t/src/lib/batch/batch.c"): #include \"util/json.h\" is src/tools/util: the library (src/lib) never includes the tools"
fresh; echo '#include "cli/cli.h"' >> "$tmp/t/src/tools/host/host.c"
expect_caught "host including cli" "reaches from host up or across to cli"
fresh; echo '#include "prog/program.h"' >> "$tmp/t/src/tools/verify/engine/engine.c"
expect_caught "verify including prog (across, from a subfolder)" "reaches from verify up or across to prog"
fresh; echo '#include "probe/probe.h"' >> "$tmp/t/src/tools/util/process.c"
expect_caught "util including probe" "reaches from util up or across to probe"
fresh; echo '#include "verify.h"' >> "$tmp/t/src/tools/verify/oracles/oracle_sem.c"
expect_caught "a bare include of a file that is not beside its includer" "names no file of the tree"
fresh; echo '#include "vec/instantiate.h"' >> "$tmp/t/src/tools/bench/throughput.c"
expect_caught "a tool including a library-private header" "is private to vec"
fresh; mkdir "$tmp/t/src/attic"; echo 'int x;' > "$tmp/t/src/attic/a.c"
expect_caught "an unknown folder beside src/lib and src/tools" "src/attic is neither src/lib nor src/tools"
fresh; mkdir "$tmp/t/src/tools/attic"; echo 'int x;' > "$tmp/t/src/tools/attic/a.c"
expect_caught "an unknown folder among the tools" "src/tools/attic/ is not a known layer of src/tools"
fresh; mv "$tmp/t/src/lib/vec" "$tmp/t/src/tools/vec"
expect_caught "a library folder among the tools" "src/tools/vec/ is not a known layer of src/tools"
fresh; echo 'int x;' > "$tmp/t/src/lib/stray.c"
expect_caught "a source directly in src/lib" "src/lib/stray.c is in no layer's folder"
fresh; echo '/* see src/tools/verify/engine.c */' >> "$tmp/t/include/q7pred.h"
expect_caught "a public header naming a source path" "include/q7pred.h"
fresh; echo '#include "no_such.h"' >> "$tmp/t/src/lib/abi/registry.c"
expect_caught "an include of no file" "names no file of the tree"
fresh; echo 'int q7d_stray(void);' >> "$tmp/t/src/tools/util/process.h"
expect_caught "util declaring a name with verify's prefix" \
    "src/tools/util/process.h:$(wc -l < "$tmp/t/src/tools/util/process.h"): q7d_stray has the prefix of src/tools/verify/"
fresh; echo '#define Q7U_STRAY 1' >> "$tmp/t/src/tools/report/report.h"
expect_caught "report defining a macro with util's prefix" "Q7U_STRAY has the prefix of src/tools/util/"
fresh; echo '#define q7m_unmade(a) (a)' >> "$tmp/t/src/lib/abi/mutants.h"
expect_caught "abi defining a model name that model does not make" "q7m_unmade has the prefix of src/lib/model/"
fresh; sed -i 's/Q7_HOST_IMPL_H/Q7_VERIFY_IMPL_H/g' "$tmp/t/src/tools/host/host_impl.h"
expect_caught "host's header with verify's include guard" "include guard Q7_VERIFY_IMPL_H does not begin with Q7_HOST_"
# An object: a planted source compiled beside a copy of the tree.
fresh; mkdir -p "$tmp/obj/src/tools/probe"
printf 'int stray_name(void);\nint stray_name(void) { return 0; }\n' > "$tmp/t/src/tools/probe/plant.c"
cc -c -o "$tmp/obj/src/tools/probe/plant.o" "$tmp/t/src/tools/probe/plant.c"
expect_caught "probe's object defining a name without q7p_" "src/tools/probe/plant.c defines stray_name" "$tmp/obj"
rm "$tmp/t/src/tools/probe/plant.c"
if bash tests/layers.sh "$tmp/t" "$tmp/obj" >/dev/null 2>&1; then
    echo "FAIL: OBJDIR holding no object of the tree's sources passed"; fail=1
else echo "ok: an OBJDIR without the tree's objects caught"; fi
exit $fail
