# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.x86: the decoder's records for encodings whose meaning the
Intel SDM (vol. 2) fixes, the table covering each mnemonic it gives, and
encodings the table refuses by name (a prefix the row does not define)."""
import pytest

pytest.importorskip('z3')
pytest.importorskip('capstone')
from q7prove.x86 import decode  # noqa: E402
from q7prove.x86 import table  # noqa: E402


class Code:
    """A stand-in image: `code` at address 0x1000, executable."""

    def __init__(self, code):
        self.code = code

    def executable(self, addr):
        return 0x1000 <= addr < 0x1000 + len(self.code)

    def segment_of(self, addr):
        return (0x1000, len(self.code), 0, len(self.code), 5)

    def code_at(self, addr, n):
        return self.bytes_at(addr, n)

    def code_problem(self, addr, n):
        return None

    def bytes_at(self, addr, n):
        return self.code[addr - 0x1000:addr - 0x1000 + n]

    def where(self, addr):
        return hex(addr)


# (bytes, mnemonic, operands as (kind, size, register or base, displacement))
CASES = [
    ('4801f8', 'add', [('reg', 8, 'rax'), ('reg', 8, 'rdi')]),            # REX.W 01 /r: ADD r/m64, r64
    ('8b4704', 'mov', [('reg', 4, 'eax'), ('mem', 4, 'rdi', 4)]),          # 8B /r: MOV r32, r/m32
    ('0fb6c7', 'movzx', [('reg', 4, 'eax'), ('reg', 1, 'bh')]),            # 0F B6 /r, rm 7 without REX: bh
    ('400fb6c7', 'movzx', [('reg', 4, 'eax'), ('reg', 1, 'dil')]),         # with a REX prefix: dil
    ('c3', 'ret', []),
    ('660fefc0', 'pxor', [('reg', 16, 'xmm0'), ('reg', 16, 'xmm0')]),      # 66 0F EF /r
]


@pytest.mark.parametrize('hexcode, mnemonic, ops', CASES)
def test_decoded_records(hexcode, mnemonic, ops):
    code = bytes.fromhex(hexcode)
    insn = decode.Decoder(Code(code)).at(0x1000)
    assert insn.mnemonic == mnemonic
    assert insn.size == len(code) and insn.next == 0x1000 + len(code)
    got = []
    for o in insn.ops:
        if o.kind == 'reg':
            got.append((o.kind, o.size, o.reg))
        else:
            got.append((o.kind, o.size, o.base, o.disp))
    assert got == ops
    assert mnemonic in table.mnemonics()


def test_code_outside_the_image_is_refused():
    with pytest.raises(decode.DecodeError):
        decode.Decoder(Code(b'\xc3')).at(0x2000)


# (bytes, words the refusal names): prefixes the SDM gives another meaning
REFUSED = [
    ('666a05', '66'),        # push imm16: a 2-byte push
    ('f2a5', 'f2'),          # repne movsd: a string move, not movsd xmm
    ('660fc8', '66'),        # bswap with 66: undefined
    ('6348c0', ''),          # 63 /r without REX.W: a 32-bit move, not movsxd
]


@pytest.mark.parametrize('hexcode, prefix', REFUSED)
def test_prefixes_the_table_does_not_define(hexcode, prefix):
    with pytest.raises(table.Unaccepted) as e:
        table.lookup(bytes.fromhex(hexcode) + bytes(15))
    assert prefix in str(e.value)


def test_an_instruction_over_15_bytes():
    with pytest.raises(table.Unaccepted):
        table.lookup(bytes.fromhex('66' * 14 + '0501000000') + bytes(4))
