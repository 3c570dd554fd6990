# SPDX-License-Identifier: BSD-3-Clause
"""The provers' and checkers' optional modules (Debian packages): each
imported, or the program ends as a test that cannot run here does (exit 77,
`skipped: needs MODULE (PACKAGES)` its last line, tests/harness.sh)."""
import importlib
import sys


def modules(packages, *names):
    """The modules NAMES, imported; PACKAGES names what provides them."""
    try:
        return [importlib.import_module(n) for n in names]
    except ImportError as e:
        print('skipped: needs %s (%s)' % (e.name, packages))
        sys.exit(77)
