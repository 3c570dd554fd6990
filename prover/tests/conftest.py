# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of q7prove's unit tests: a C compiler and a scratch
folder for the small libraries some tests build."""
import os
import shutil
import subprocess

import pytest


@pytest.fixture
def build_so(tmp_path):
    """build_so(name, C text, *flags) -> the path of a shared library built
    from the text by cc (skipped without one)."""
    cc = os.environ.get('CC', 'cc')
    if shutil.which(cc) is None:
        pytest.skip('needs a C compiler (%s)' % cc)

    def build(name, text, *flags):
        src, so = tmp_path / (name + '.c'), tmp_path / (name + '.so')
        src.write_text(text)
        subprocess.run([cc, '-O2', '-shared', '-fPIC', '-o', str(so), str(src)] + list(flags), check=True)
        return str(so)
    return build
