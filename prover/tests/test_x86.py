# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.x86: the decoder's records for encodings whose meaning the
Intel SDM (vol. 2) fixes, and the table covering each mnemonic it gives."""
import pytest

pytest.importorskip('z3')
pytest.importorskip('capstone')
from q7prove.x86 import decode  # noqa: E402
from q7prove.x86 import semantics  # noqa: E402


class Code:
    """A stand-in image: `code` at address 0x1000, executable."""

    def __init__(self, code):
        self.code = code

    def executable(self, addr):
        return 0x1000 <= addr < 0x1000 + len(self.code)

    def segment_of(self, addr):
        return (0x1000, len(self.code), 0, len(self.code), 5)

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
    assert mnemonic in semantics.TABLE


def test_code_outside_the_image_is_refused():
    with pytest.raises(decode.DecodeError):
        decode.Decoder(Code(b'\xc3')).at(0x2000)
