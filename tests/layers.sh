#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The include rule of the tree: every #include "..." in include/ and src/
# points down (or within its own folder), never up or across.
# src/ holds two folders and nothing else: src/lib, the library (what
# libq7pred is built of), and src/tools, the tools; each layer below is a
# folder of one of them. An include names a layer's file as "DIR/x.h"
# (the build's include path is src/lib and src/tools).
#   bash tests/layers.sh [ROOT [OBJDIR]]
#       exit 0 if the tree keeps the rules, 1 with one line per violation.
#       OBJDIR holds the objects make built of ROOT's sources (build/obj),
#       for the check of their names.
# The layers, bottom first, and what each may include besides itself:
#   include    the public headers: only each other
# src/lib/, the library:
#   platform   CPU features, dispatch, byte order, clock
#   model      the semantics
#   abi        the exported leaves and the registry, from the tables
#   batch      batch evaluation and its kernels
#   vec        the 512-bit vector level
# src/tools/, the tools:
#   util       the tools' building blocks (JSON writer and reader, escaping,
#              child processes, the crash-isolated library child)
#   host       the host-silicon oracle
#   prog       the program language
#   probe      the ABI probe: a library's leaves called in a child
#   verify     the differential engine, corpora, oracles, sweeps
#   report     verify's reports (text, markdown, JSON, JUnit), their
#              reading back and merging; the JSON documents' schemas
#   prove      q7pred prove's C side: the prover child's result lines, the
#              native replay of a counterexample, the reports, proof files
#   bench      throughput and child-process timing
#   cli        main and one file per subcommand
# platform..vec are the library (src/lib/); nothing under src/lib includes
# anything under src/tools, and util includes only platform of it. The
# tools reach the library through include/ and through one named internal
# header per library folder, src/lib/DIR/DIR_internal.h, which says what
# tools may use of it; every other header of a library folder is the
# library's own. A folder under src/lib or src/tools that is not listed
# here as one of that parent's, or anything under src/ beside those two, is
# itself a violation: every folder has its place in this list. A folder's
# own subfolders (src/tools/verify/engine/) are of its layer.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$(cd "$here/.." && pwd)}
[ -f "$here/header_names.awk" ] || { echo "layers: $here/header_names.awk is missing" >&2; exit 2; }

declare -A may=(
    [include]="include"
    [platform]="include"
    [model]="include platform"
    [abi]="include platform model"
    [batch]="include platform model abi"
    [vec]="include platform model abi batch"
    [util]="include platform"
    [host]="include platform model abi batch vec util"
    [prog]="include platform model abi batch vec util"
    [probe]="include platform model abi batch vec util"
    [verify]="include platform model abi batch vec util host"
    [report]="include platform model abi batch vec util host verify"
    [bench]="include platform model abi batch vec util host prog verify report"
    [prove]="include platform model abi batch vec util host prog probe verify report"
    [cli]="include platform model abi batch vec util host prog probe verify report prove bench"
)

# The library's folders (src/lib/): a tool reaches each only by its
# internal header. The tools' folders (src/tools/).
library="platform model abi batch vec"
tools="util host prog probe verify report prove bench cli"

bad=0
say() { echo "layers: $*"; bad=1; }

for entry in "$root"/src/*; do
    [ -e "$entry" ] || continue
    case ${entry##*/} in
    lib|tools) ;;
    *) say "src/${entry##*/} is neither src/lib nor src/tools: the library's folders go under src/lib, the tools' under src/tools" ;;
    esac
done
for parent in lib tools; do
    [ -d "$root/src/$parent" ] || { say "src/$parent/ is missing"; continue; }
    if [ "$parent" = lib ]; then known=$library; else known=$tools; fi
    for entry in "$root/src/$parent"/*; do
        [ -e "$entry" ] || continue
        f=${entry##*/}
        if [ ! -d "$entry" ]; then say "src/$parent/$f is in no layer's folder (src/$parent/DIR/)"
        else case " $known " in
             *" $f "*) ;;
             *) say "src/$parent/$f/ is not a known layer of src/$parent (add it to tests/layers.sh)" ;;
             esac
        fi
    done
done

# The folder an include names, into $to: "x.h" is the includer's folder
# when the file is there (beside the includer), else include/; "dir/x.h" is
# src/lib/dir or src/tools/dir. "?path" when it names no file of the tree.
target_of() { # includer-folder includer-file include-path
    local from=$1 file=$2 path=$3
    case $path in
    */*) if [ -e "$root/src/lib/$path" ] || [ -e "$root/src/tools/$path" ]; then to=${path%%/*}
         else to="?$path"; fi ;;
    *)   if [ "$from" != include ] && [ -e "${file%/*}/$path" ]; then to=$from
         elif [ -e "$root/include/$path" ]; then to=include
         else to="?$path"; fi ;;
    esac
}

# One pass over every file: FILE:LINE:INCLUDE for each #include "...".
while IFS=: read -r file line inc; do
    rel=${file#"$root"/}
    case $rel in
    include/*) from=include ;;
    src/lib/*/*) from=${rel#src/lib/}; from=${from%%/*}; [[ " $library " == *" $from "* ]] || continue ;;
    src/tools/*/*) from=${rel#src/tools/}; from=${from%%/*}; [[ " $tools " == *" $from "* ]] || continue ;;
    *) continue ;;   # a file out of place: said above
    esac
    target_of "$from" "$file" "$inc"
    case $to in
    \?*) say "$rel:$line: #include \"$inc\" names no file of the tree" ;;
    "$from") ;;
    *) case " $library " in
       *" $from "*) case " $tools " in
                    *" $to "*) say "$rel:$line: #include \"$inc\" is src/tools/$to: the library (src/lib) never includes the tools"
                               continue ;;
                    esac ;;
       esac
       case " ${may[$from]} " in
       *" $to "*) case " $library " in
                  *" $from "*) ;;
                  *" $to "*) [ "$inc" = "$to/${to}_internal.h" ] ||
                      say "$rel:$line: #include \"$inc\" is private to $to: a tool includes include/ or $to/${to}_internal.h" ;;
                  esac ;;
       *) say "$rel:$line: #include \"$inc\" reaches from $from up or across to $to" ;;
       esac ;;
    esac
done < <(find "$root/include" "$root/src" -type f \( -name '*.h' -o -name '*.c' -o -name '*.def' \) \
           -exec awk '/^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
                  s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print FILENAME ":" FNR ":" s }' {} + | sort)

# A public header speaks of the API, never of where the tools live.
while IFS=: read -r file line _; do
    say "${file#"$root"/}:$line: a public header names a source path"
done < <(grep -n 'src/' "$root"/include/* /dev/null)

# The names. Each folder's names begin with its prefix, and a prefix is one
# folder's: a name says where it lives. The library's folders share the
# public API's q7_ (and model its q7m_ bodies, vec its q7v_, abi the
# exported module__xdref_ leaves).
prefixes='platform=q7_ model=q7_,q7m_ abi=q7_,module__xdref_ batch=q7_ vec=q7_,q7v_
          util=q7u_ host=q7h_ prog=prog_ probe=q7p_ verify=q7d_ report=q7r_ prove=prv_ bench=bench_ cli=cli_'
# One awk reads the table, then the lines to judge, and prints a violation a
# line. A header line is H FILE:LINE:NAME[:KIND] (tests/header_names.awk),
# an object's symbol is O SOURCE NAME.
names_check() {
    awk -v table="$prefixes" -v root="$root/" -v libs="$library" '
    function folder(path) { sub("^" root, "", path); sub(/^src\/(lib|tools)\//, "", path); sub(/\/.*/, "", path); return path }
    # where folder f lives: src/lib/f/ or src/tools/f/
    function where(f) { return "src/" (index(" " libs " ", " " f " ") ? "lib" : "tools") "/" f "/" }
    function list(f) { s = pre[f]; gsub(/,/, ", ", s); return s }
    # the folder owning the longest prefix of n (either case), "" for none;
    # a prefix shared by folders is owned by each (own[f, p])
    function owner_of(n,    l, p, best) {
        l = tolower(n); best = ""
        for (p in owners) if (index(l, p) == 1 && length(p) > length(best)) best = p
        return best
    }
    BEGIN { nf = split(table, rows, /[ \n]+/)
        for (r = 1; r <= nf; r++) { if (rows[r] == "") continue; split(rows[r], kv, "=")
            pre[kv[1]] = kv[2]; np = split(kv[2], ps, ",")
            for (k = 1; k <= np; k++) { own[kv[1], ps[k]] = 1; if (!(ps[k] in owners)) owners[ps[k]] = kv[1] } } }
    $1 == "H" { split($2, h, ":"); hf[++nh] = h[1]; hl[nh] = h[2]; hn[nh] = h[3]; hk[nh] = h[4]
        if (h[3] != "guard") declared[folder(h[1]), h[3]] = 1; next }
    $1 == "O" { f = folder($2); if (!(f in pre) || (f == "cli" && $3 == "main")) next
        ok = 0; np = split(pre[f], ps, ","); for (k = 1; k <= np; k++) if (index($3, ps[k]) == 1) ok = 1
        if (!ok) print $2 " defines " $3 ": the names of " where(f) " begin with " list(f); next }
    END { for (i = 1; i <= nh; i++) {
        f = folder(hf[i]); if (!(f in pre)) continue; rel = hf[i]; sub("^" root, "", rel)
        if (hn[i] == "guard") { up = "Q7_" toupper(f) "_"
            if (index(hk[i], up) != 1) print rel ":" hl[i] ": the include guard " hk[i] " does not begin with " up; continue }
        p = owner_of(hn[i]); if (p == "" || own[f, p]) continue
        o = owners[p]
        # a macro may wrap a name, or redefine one its owner declares (a
        # planted mutant overrides a model body): it declares none
        if (hk[i] == "wraps" || (hk[i] == "define" && declared[o, hn[i]])) continue
        print rel ":" hl[i] ": " hn[i] " has the prefix of " where(o) ": the names of " where(f) " begin with " list(f) } }'
}

# What a header declares (tests/header_names.awk): a name with another
# folder's prefix is that folder's, and the include guard is Q7_<FOLDER>_...
# What the linker sees: every symbol a folder's objects define begins with
# the folder's prefix (main is the program's). The objects are those make
# built of the tree's sources (OBJDIR, by default build/obj); without them
# the objects are not checked, and the check says so, unless OBJDIR was given.
objdir=${2:-$root/${BUILD:-build}/obj}
objects=()
while IFS= read -r obj; do
    rel=${obj#"$objdir"/}
    [ -f "$root/${rel%.o}.c" ] && objects+=("$obj")   # not an object of a source that is gone
done < <([ -d "$objdir/src" ] && find "$objdir/src" -name '*.o' -type f | sort)
while IFS= read -r v; do say "$v"; done < <(
    { find "$root/src" -name '*.h' -type f -exec awk -f "$here/header_names.awk" {} + | sed 's/^/H /'
      [ "${#objects[@]}" -eq 0 ] ||
          nm -A -g --defined-only "${objects[@]}" | awk -v d="$objdir/" 'NF == 3 { o = $1; sub(/:[0-9a-f]*$/, "", o); sub("^" d, "", o); sub(/\.o$/, ".c", o); print "O", o, $3 }'
    } | names_check | sort)
if [ "${#objects[@]}" -eq 0 ]; then
    if [ -n "${2:-}" ]; then say "no objects of the tree's sources in $objdir"
    else echo "layers: the objects' names not checked: no objects in $objdir (run make first)"; fi
fi

[ "$bad" -eq 0 ] && echo "layers: every include points down, every name has its folder's prefix"
exit "$bad"
