# SPDX-License-Identifier: BSD-3-Clause
# The names a C header declares, for tests/layers.sh: one FILE:LINE:NAME a
# line for each typedef name, struct/union/enum tag, enumerator, and
# function or object declared at file scope (at column 0, as .clang-format
# lays them out), FILE:LINE:NAME:define for each macro (:wraps for one
# whose body calls the name it defines), and
# FILE:LINE:guard:NAME for the include guard. Names made
# by a macro's expansion are not seen (the object check sees those that
# reach the linker).
function emit(n, kind) { if (n != "" && n !~ /^(__attribute__|_Static_assert|sizeof|defined|const|void|int|unsigned|char|bool|struct|enum|union)$/) print FILENAME ":" FNR ":" n (kind == "" ? "" : ":" kind) }
function ident_before(s, c,    i) {   # the identifier that ends right before column c of s
    s = substr(s, 1, c - 1); sub(/[ \t]+$/, "", s)
    if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) return substr(s, RSTART, RLENGTH); return ""
}
FNR == 1 { guard = ""; inenum = 0; incomment = 0; depth = 0 }
{ line = $0 }
# comments out of the line (a block comment may span lines)
incomment { if (index(line, "*/")) { line = substr(line, index(line, "*/") + 2); incomment = 0 } else next }
{ while (match(line, /\/\*/)) { rest = substr(line, RSTART + 2); e = index(rest, "*/")
      if (e) line = substr(line, 1, RSTART - 1) " " substr(rest, e + 2); else { line = substr(line, 1, RSTART - 1); incomment = 1 } }
  sub(/\/\/.*/, "", line) }
# a macro body's continuation lines declare nothing
cont { cont = (line ~ /\\$/); next }
# braces at file scope: d0 is the depth the line starts at (a static inline
# function's body declares nothing)
!/^[ \t]*#/ { d0 = depth; o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line); depth += o - c; if (depth < 0) depth = 0 }
/^[ \t]*#/ { cont = (line ~ /\\$/)
    if (guard == "" && match(line, /^#[ \t]*ifndef[ \t]+/)) { g = substr(line, RLENGTH + 1); sub(/[ \t].*/, "", g); guard = g; print FILENAME ":" FNR ":guard:" g; next }
    if (match(line, /^#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) { n = substr(line, RSTART, RLENGTH); sub(/^#[ \t]*define[ \t]+/, "", n)
        body = substr(line, index(line, n) + length(n))
        if (n != guard) emit(n, body ~ ("(^|[^A-Za-z0-9_])" n "[ \t]*\\(") ? "wraps" : "define") }
    next }
# enumerators: the names inside an enum's braces (before any '=')
inenum || line ~ /(^|[^A-Za-z0-9_])enum([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*\{/ {
    s = line
    if (!inenum) { s = substr(s, index(s, "{") + 1); inenum = 1 }
    closed = index(s, "}"); if (closed) { tail = substr(s, closed); s = substr(s, 1, closed - 1); inenum = 0 }
    nitems = split(s, items, ",")
    for (i = 1; i <= nitems; i++) { it = items[i]; sub(/=.*/, "", it); gsub(/[ \t]/, "", it); if (it ~ /^[A-Za-z_][A-Za-z0-9_]*$/) emit(it) }
    if (closed && depth == 0 && match(tail, /^\}[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) { n = substr(tail, RSTART, RLENGTH); sub(/^\}[ \t]*/, "", n); emit(n) }
}
# struct/union/enum tags
{ s = line; while (match(s, /(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) { t = substr(s, RSTART, RLENGTH)
      sub(/^(struct|union|enum)[ \t]+/, "", t); sub(/[ \t]*\{$/, "", t); emit(t); s = substr(s, RSTART + RLENGTH) } }
# the name that closes a multi-line typedef: "} name;"
match(line, /^\}[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])?[ \t]*;/) { n = substr(line, 2); sub(/^[ \t]*/, "", n); sub(/[^A-Za-z0-9_].*/, "", n); emit(n); next }
# a one-line typedef: a function type "(*name)(" or "name(", else the last name before ';'
/^typedef/ && line ~ /;[ \t]*$/ && line !~ /\{/ {
    if (match(line, /\([ \t]*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/)) { n = substr(line, RSTART, RLENGTH); gsub(/[()* \t]/, "", n); emit(n) }
    else if (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) emit(ident_before(line, RSTART + RLENGTH - 1))
    else { s = line; sub(/[ \t]*(\[[^]]*\][ \t]*)*;[ \t]*$/, "", s); if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) emit(substr(s, RSTART, RLENGTH)) }
    next }
# a forward declaration names a type, it does not declare one
/^(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*;/ { next }
# column 0: a function (the name before the first '(' that is not an attribute) or an object
/^[A-Za-z_]/ && line !~ /^(typedef|struct|union|enum)[^;(]*\{/ && line !~ /^(typedef)/ && d0 == 0 {
    s = line; gsub(/__attribute__[ \t]*\(\([^)]*(\([^)]*\))*[^)]*\)\)/, "", s); gsub(/Q7_[A-Z_]+\([^)]*\)/, "", s)
    if (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) emit(ident_before(s, RSTART + RLENGTH - 1))
    else if (s ~ /;[ \t]*$/) { sub(/[ \t]*(=.*)?;[ \t]*$/, "", s); sub(/([ \t]*\[[^]]*\])+$/, "", s); if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) emit(substr(s, RSTART, RLENGTH)) }
}
