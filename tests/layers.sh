#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The include rule of the tree: every #include "..." in include/ and src/
# points down (or within its own folder), never up or across.
#   bash tests/layers.sh [ROOT]     exit 0 if the tree keeps the rule,
#                                   1 with one line per violation
# The layers, bottom first, and what each may include besides itself:
#   include    the public headers: only each other
#   platform   CPU features, dispatch, byte order, clock
#   model      the semantics
#   abi        the exported leaves and the registry, from the tables
#   batch      batch evaluation and its kernels
#   vec        the 512-bit vector level
#   util       the tools' building blocks (JSON writer and reader, escaping,
#              child processes, the crash-isolated library child)
#   host       the host-silicon oracle
#   prog       the program language
#   probe      the ABI probe: a library's leaves called in a child
#   verify     the differential engine, corpora, oracles, sweeps
#   report     verify's reports (text, markdown, JSON, JUnit), their
#              reading back and merging; the JSON documents' schemas
#   bench      throughput and child-process timing
#   cli        main and one file per subcommand
# platform..vec are the library (libq7pred); nothing of the library
# includes a tool folder, and util includes only platform of it. The tools
# reach the library through include/ and through one named internal
# header per library folder, src/DIR/DIR_internal.h, which says what tools
# may use of it; every other header of a library folder is the library's
# own. A folder under src/ that is not listed is itself a violation: every
# folder has its place in this list. A folder's own subfolders
# (src/verify/engine/) are of its layer.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

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
    [cli]="include platform model abi batch vec util host prog probe verify report bench"
)

# The library's folders: a tool reaches each only by its internal header.
library="platform model abi batch vec"

bad=0
say() { echo "layers: $*"; bad=1; }

for dir in "$root"/src/*/; do
    [ -d "$dir" ] || continue
    f=$(basename "$dir")
    [ -n "${may[$f]+x}" ] || say "src/$f/ is not a known layer (add it to tests/layers.sh)"
done

# The folder an include names, into $to: "x.h" is the includer's folder
# when the file is there (beside the includer), else include/; "dir/x.h" is
# src/dir. "?path" when it names no file of the tree.
target_of() { # includer-folder includer-file include-path
    local from=$1 file=$2 path=$3
    case $path in
    */*) if [ -e "$root/src/$path" ]; then to=${path%%/*}; else to="?$path"; fi ;;
    *)   if [ "$from" != include ] && [ -e "$(dirname "$file")/$path" ]; then to=$from
         elif [ -e "$root/include/$path" ]; then to=include
         else to="?$path"; fi ;;
    esac
}

# One pass over every file: FILE:LINE:INCLUDE for each #include "...".
while IFS=: read -r file line inc; do
    rel=${file#"$root"/}
    case $rel in
    include/*) from=include ;;
    src/*) from=${rel#src/}; from=${from%%/*} ;;
    esac
    [ -n "${may[$from]+x}" ] || continue
    target_of "$from" "$file" "$inc"
    case $to in
    \?*) say "$rel:$line: #include \"$inc\" names no file of the tree" ;;
    "$from") ;;
    *) case " ${may[$from]} " in
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

[ "$bad" -eq 0 ] && echo "layers: every include points down"
exit "$bad"
