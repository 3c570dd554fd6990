# SPDX-License-Identifier: BSD-3-Clause
"""z3, unicorn and capstone imported without the packaging modules they do
not need.

Debian's z3 imports pkg_resources to call resource_filename('z3', 'lib')
once (a folder it then tries among others to load libz3 from); its unicorn
imports pkg_resources and distutils.sysconfig, and its capstone
distutils.sysconfig, and use neither: together about 0.15 s of every
prover process's start, most of a short run's. While one of the three
packages itself is being imported (and only then, and only where the real
module is not already loaded), those names stand for small modules:
resource_filename as pkg_resources computes it for a package in a folder,
and any other name read from one loads the real module and answers from
it. Once the import ends the stand-ins are gone from sys.modules, so a
later import of any of them gets the real module.

install() puts the finder first on sys.meta_path (q7prove's package import
does); it changes nothing but how those three packages are imported.
"""
import importlib
import importlib.util
import os
import sys
import types

PACKAGES = ('z3', 'unicorn', 'capstone')
STANDS_FOR = ('pkg_resources', 'distutils', 'distutils.sysconfig')


def _real(name):
    """The real module name, imported (its stand-in and its package's dropped first)."""
    for n in dict.fromkeys((name.split('.')[0], name)):
        if getattr(sys.modules.get(n), '_q7_stand_in', False):
            del sys.modules[n]
    return importlib.import_module(name)


def _stand_in(name):
    mod = types.ModuleType(name)
    mod._q7_stand_in = True
    mod.__getattr__ = lambda attr: getattr(_real(name), attr)     # PEP 562: anything else, from the real one
    if name == 'pkg_resources':
        def resource_filename(package, resource):
            # pkg_resources' answer for a package in a folder of the file system
            return os.path.join(os.path.dirname(importlib.import_module(package).__file__), resource)
        mod.resource_filename = resource_filename
    return mod


class _Light:
    """A package's loader that runs it with the stand-ins in place."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        made = [n for n in STANDS_FOR if n not in sys.modules]
        for n in made:
            sys.modules[n] = _stand_in(n)
        if 'distutils' in made and 'distutils.sysconfig' in made:
            sys.modules['distutils'].sysconfig = sys.modules['distutils.sysconfig']
        try:
            self.loader.exec_module(module)
        finally:
            for n in made:
                if getattr(sys.modules.get(n), '_q7_stand_in', False):
                    del sys.modules[n]


class _Finder:
    """Finds z3, unicorn and capstone as the other finders do, with _Light as the loader."""

    def find_spec(self, name, path, target=None):
        if name not in PACKAGES:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None or not hasattr(spec.loader, 'exec_module'):
            return spec
        spec.loader = _Light(spec.loader)
        return spec


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
