#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `make install PREFIX=<tmp>`, then the README's C example (the ```c block
# under "## From C") built by CMake through find_package(q7pred 0.1) and
# the imported target q7pred::q7pred, and run: its output must be the
# values the README's comments give. Also: an incompatible version request
# is refused, and the installed soname link and q7_version() hold. Needs
# cmake: without it skipped (exit 77), under CI=true a failure.
set -euo pipefail
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$SRCDIR"
if ! command -v cmake >/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: cmake is not installed; CI=true requires it" >&2; exit 1; fi
    echo "skipped: cmake is not installed (apt-get install cmake)"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory BUILD="${BUILD:-build}" \
    PREFIX="$prefix" install >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
for f in lib/cmake/q7pred/q7pred-config.cmake lib/cmake/q7pred/q7pred-config-version.cmake lib/libq7pred.so.0; do
    [ -e "$prefix/$f" ] || { echo "FAIL: make install did not install $f" >&2; exit 1; }
done
[ "$(readlink "$prefix/lib/libq7pred.so")" = libq7pred.so.0 ] || {
    echo "FAIL: lib/libq7pred.so is not the link to libq7pred.so.0" >&2; exit 1; }

mkdir "$tmp/src"
awk '/^## From C/ { on = 1 } on && /^```c/ { code = 1; next } code && /^```/ { exit } code { print }' README.md \
    >"$tmp/src/prog.c"
grep -q 'int main' "$tmp/src/prog.c" || { echo "FAIL: README.md has no C example under '## From C'" >&2; exit 1; }
cat >"$tmp/src/CMakeLists.txt" <<'EOF2'
cmake_minimum_required(VERSION 3.13)
project(readme_example C)
find_package(q7pred 0.1 REQUIRED)
add_executable(prog prog.c)
set_property(TARGET prog PROPERTY C_STANDARD 11)
target_link_libraries(prog PRIVATE q7pred::q7pred)
EOF2
cmake -S "$tmp/src" -B "$tmp/bld" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1 || {
    cat "$tmp/cmake.log"; echo "FAIL: cmake configure with find_package(q7pred)" >&2; exit 1; }
cmake --build "$tmp/bld" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; echo "FAIL: cmake --build" >&2; exit 1; }
# The README's comments: 1, 0x60, 0x3, "module__xdref_lt_2_16_16 = 0x3".
want=$'1\n0x60\n0x3\nmodule__xdref_lt_2_16_16 = 0x3'
got=$("$tmp/bld/prog")
[ "$got" = "$want" ] || { echo "FAIL: the README example printed:"; echo "$got"; echo "want:"; echo "$want"; exit 1; } >&2
ldd "$tmp/bld/prog" | grep "libq7pred.so.0 => $prefix/lib/libq7pred.so.0" >/dev/null || {
    echo "FAIL: prog does not load the installed libq7pred.so.0" >&2; ldd "$tmp/bld/prog"; exit 1; }
echo "cmake: the README example through q7pred::q7pred printed its documented values"

# A version this one is not: find_package must refuse it.
sed -i 's/find_package(q7pred 0.1 REQUIRED)/find_package(q7pred 1.0 REQUIRED)/' "$tmp/src/CMakeLists.txt"
if cmake -S "$tmp/src" -B "$tmp/bld2" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake2.log" 2>&1; then
    echo "FAIL: find_package(q7pred 1.0) accepted version 0.1.x" >&2; exit 1
fi
echo "PASS: make install's CMake package, find_package(q7pred), q7pred::q7pred"
