# SPDX-License-Identifier: BSD-3-Clause
"""Builds q7pred's Python extension from the repository's own C sources.

The library (src/lib: platform, model, abi, batch, vec) and the program
language (src/tools/prog) are compiled with the flags the Makefile gives
them, read from mk/library.flags, and linked into the extension with its
own sources (python/ext), with the crash-isolated library child of the
tools (src/tools/util's child processes, verify's lib:PATH oracle) behind
q7pred.load(..., isolated=True). Q7_API is defined empty, so that the extension exports only
its module init. After the build, the type stubs are written from the
built module's tables (gen_stubs.py).

Q7PRED_WERROR=1 in the environment adds -Werror (make check sets it).
"""
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# The library's folders (src/lib) and, of the tools (src/tools), the program
# language.
LIB_DIRS = ("lib/platform", "lib/model", "lib/abi", "lib/batch", "lib/vec", "tools/prog")
# The pieces of src/tools/util that src/tools/prog uses (exec --json: the
# JSON writer), and the library child's (q7pred.load(..., isolated=True)) with the
# checks of the files it opens (paths.c).
UTIL_SOURCES = ("json_write.c", "json.c", "escape.c", "paths.c", "process.c", "lib_child.c", "lib_child_client.c")
# verify's lib:PATH oracle: its child and its client (q7d_lib).
CHILD_SOURCES = ("tools/verify/oracles/oracle_lib_child.c", "tools/verify/oracles/oracle_lib_client.c")


def repository_tree():
    """The q7pred checkout this directory belongs to (it builds from it)."""
    if not (ROOT / "src" / "lib" / "abi" / "registry.c").is_file():
        sys.exit("q7pred: the Python package builds from the q7pred repository's sources: "
                 "run `pip install ./python` in a q7pred checkout (%s has no src/)" % ROOT)
    return ROOT


def library_flags():
    """mk/library.flags: {'all': [...], 'src/dir/file.c': [...]}."""
    flags = {}
    for line in (ROOT / "mk" / "library.flags").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, words = line.partition(":")
            flags[key.strip()] = words.split()
    return flags


def library_sources():
    return [p for d in LIB_DIRS for p in sorted((ROOT / "src" / d).glob("*.c"))] + \
        [ROOT / "src" / "tools" / "util" / f for f in UTIL_SOURCES] + [ROOT / "src" / f for f in CHILD_SOURCES]


def headers():
    return sorted(str(p) for p in [*(ROOT / "include").glob("*"), *(ROOT / "src").glob("*/*/*.h"),
                                   *(ROOT / "src").glob("*/*/*/*.h"),
                                   *(HERE / "ext").glob("*.h"), ROOT / "mk" / "library.flags", HERE / "setup.py"])


def version():
    text = (ROOT / "include" / "q7pred.h").read_text()
    return re.search(r'#define Q7PRED_VERSION "([^"]+)"', text).group(1)


def werror():
    return ["-Werror"] if os.environ.get("Q7PRED_WERROR") == "1" else []


class BuildExt(build_ext):
    """Compiles the library's sources with their own flags (several at a
    time), links them into the extension, then writes the stubs."""

    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name))
        if not self.force and target.exists() and all(
                os.path.getmtime(HERE / p) <= target.stat().st_mtime for p in [*ext.sources, *ext.depends]):
            return      # up to date
        flags = library_flags()
        common = flags.get("all", []) + ["-DQ7_API="] + werror()
        includes = [str(ROOT / "include"), str(ROOT / "src" / "lib"), str(ROOT / "src" / "tools")]

        def compile_one(src):
            rel = src.relative_to(ROOT).as_posix()
            return self.compiler.compile([str(src)], output_dir=self.build_temp, include_dirs=includes,
                                         debug=self.debug,
                                         extra_postargs=common + flags.get(rel, []))[0]

        # -O3: the loops widen and narrow contiguous runs with vector instructions.
        own = flags.get("all", []) + ["-DQ7_API=", "-Wextra", "-O3"] + werror()

        def compile_own(src):
            return self.compiler.compile([str(HERE / src)], output_dir=self.build_temp,
                                         include_dirs=ext.include_dirs, debug=self.debug, extra_postargs=own)[0]

        os.makedirs(self.build_temp, exist_ok=True)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            library = pool.map(compile_one, library_sources())
            objects = list(pool.map(compile_own, ext.sources)) + list(library)
        # The base class only links now: no sources of its own, and never
        # "up to date" (it would judge by the headers alone).
        sources, force, ext.sources, ext.extra_objects, self.force = ext.sources, self.force, [], objects, True
        try:
            super().build_extension(ext)
        finally:
            ext.sources, self.force = sources, force

    def run(self):
        super().run()
        sys.path.insert(0, str(HERE))
        import gen_stubs
        where = HERE if self.inplace else Path(self.build_lib)
        gen_stubs.write(where / "q7pred")


repository_tree()
# setuptools' scratch (objects, the egg-info) goes to the repository's build/,
# which `make clean` removes, not into python/.
SCRATCH = ROOT / "build" / "python-setup"
SCRATCH.mkdir(parents=True, exist_ok=True)
setup(
    version=version(),
    options={"build": {"build_base": str(SCRATCH)}, "egg_info": {"egg_base": str(SCRATCH)}},
    ext_modules=[Extension(
        "q7pred._core",
        sources=[str(p.relative_to(HERE)) for p in sorted((HERE / "ext").glob("*.c"))],
        include_dirs=[str(ROOT / "include"), str(ROOT / "src" / "lib"), str(ROOT / "src" / "tools"),
                      str(HERE / "ext"),
                      __import__("numpy").get_include()],
        depends=headers() + [str(p) for p in library_sources()],
    )],
    cmdclass={"build_ext": BuildExt},
)
