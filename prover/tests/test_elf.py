# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.elf: the file as the loader sees it, checked against binutils'
nm (an independent reader) and the C source's own bytes."""
import shutil
import struct
import subprocess

import pytest

from q7prove.elf import image

SOURCE = '''
const unsigned char q7t_table[8] = {1, 2, 3, 4, 250, 251, 252, 253};
int q7t_next(int x) { return x + q7t_table[x & 7]; }
'''


def nm_dynamic(path):
    if shutil.which('nm') is None:
        pytest.skip('needs binutils nm')
    out = subprocess.run(['nm', '-D', '--defined-only', path], check=True, capture_output=True, text=True).stdout
    return {f[2]: int(f[0], 16) for f in (line.split() for line in out.splitlines()) if len(f) == 3}


def test_symbols_are_where_nm_says(build_so):
    so = build_so('lib', SOURCE)
    img, nm = image.Image(so), nm_dynamic(so)
    for name in ('q7t_table', 'q7t_next'):
        assert img.by_name[name].value == nm[name], name


def test_bytes_and_permissions(build_so):
    img = image.Image(build_so('lib', SOURCE))
    table, code = img.by_name['q7t_table'].value, img.by_name['q7t_next'].value
    assert img.bytes_at(table, 8) == bytes([1, 2, 3, 4, 250, 251, 252, 253])
    assert img.readable(table, 8)
    assert not img.executable(table)
    assert img.executable(code)
    assert img.by_name['q7t_next'].kind != img.by_name['q7t_table'].kind


@pytest.mark.parametrize('data, words', [
    (b'not an elf at all' * 8, 'not an ELF file'),
    (b'\x7fELF\x01\x01\x01' + bytes(57), '32-bit'),
    (b'\x7fELF\x02\x01\x01' + bytes(11) + struct.pack('<H', 183) + bytes(44), 'AArch64'),
])
def test_refusals_name_the_file_and_the_reason(tmp_path, data, words):
    p = tmp_path / 'bad.so'
    p.write_bytes(data)
    with pytest.raises(image.ElfError) as e:
        image.Image(str(p))
    assert str(p) in str(e.value) and words in str(e.value)


def test_unreadable_file(tmp_path):
    with pytest.raises(image.ElfError) as e:
        image.Image(str(tmp_path / 'missing.so'))
    assert 'cannot read' in str(e.value)
