# SPDX-License-Identifier: BSD-3-Clause
"""The hand decoder of the AVX-512 and opmask encodings (x86/evex.py)
against binutils' (objdump, an independent decoder): every form of
x86/check.py that x86/evex.py decodes, assembled by gcc, must decode to
the text objdump gives for the same bytes (mnemonic, registers, writemask,
zeroing, broadcast, memory operand with its scaled displacement,
immediate) and to as many bytes; every entry of its table must be
exercised by some form; and byte patterns the SDM makes #UD, or that the
table does not list, must be refused, never decoded to a guess.

  x86/check_decode.py

Needs gcc and objdump (binutils): without them, exit 77 with the reason.
Exit 1 on any difference (each printed), 0 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from q7prove import requires

requires.modules('python3-capstone', 'capstone')

from q7prove.x86 import check, evex
from q7prove.x86.objdump import evex_text, objdump_text
from q7prove.x86.decode import DecodeError

# bytes that are not an instruction this decoder may accept, and why
REFUSED = [
    ('62e17d4876c2', 'vpcmpeqd into an opmask with EVEX.R\' set (there is no k8..k15)'),
    ('62f1fe686f00', 'vmovdqu64 with EVEX.L\'L = 3'),
    ('62f1fec86f00', 'EVEX.z without a writemask'),
    ('62f1fe586f00', 'EVEX.b (broadcast) on vmovdqu64, which has none'),
    ('62f1fd18fec3', 'EVEX.b on a register-register vpaddd (rounding control, not integer)'),
    ('62f1ee486f00', 'vmovdqu64 with a vvvv that is not 1111 (it uses none)'),
    ('62f1f5486f00', 'vmovdqa64 (66 0f 6f) with vvvv not 1111'),
    ('6662f1fe486f00', 'a 66 prefix before 62'),
    ('62f27e4a2900', 'vpmovb2m with a writemask (it has none)'),
    ('62f17dc976c2', 'vpcmpeqd into an opmask with zeroing-masking'),
    ('62f1fe4b7f00', 'not refused: control (vmovdqu64 [rax]{k3}, zmm0)'),
    ('62f1fecb7f00', 'zeroing-masking on a store'),
    ('62f37d4830c105', 'an opcode of map 0f3a the table does not list (30: VEX-only kshift)'),
    ('62f07d486f00', 'EVEX map 0'),
    ('62f57d486f00', 'EVEX with a reserved P0 bit set (map 5)'),
    ('c5fd90c1', 'kmovw with VEX.L = 1'),
    ('c4e1f892c8', 'kmov from a general register with VEX.W and no F2 (kmovw has W0)'),
    ('c4e2fd5a4e10', 'vbroadcasti128 with VEX.W = 1'),
    ('c5f99000', 'not refused: control (kmovb k0, [rax])'),
]
CONTROLS = {'62f1fe4b7f00', 'c5f99000'}


def main():
    for tool in ('gcc', 'objdump'):
        if not shutil.which(tool):
            print('skipped: needs %s' % tool)
            return 77
    forms = check.forms()
    bad = 0
    used = set()
    with tempfile.TemporaryDirectory() as tmp:
        src = ['.intel_syntax noprefix', '.text']
        for k, f in enumerate(forms):
            src += ['insn_%d:' % k, f.text, 'int3']
        path = os.path.join(tmp, 'forms.s')
        with open(path, 'w') as fh:
            fh.write('\n'.join(src) + '\n')
        obj = os.path.join(tmp, 'forms.o')
        r = subprocess.run(['gcc', '-c', '-o', obj, path], capture_output=True, text=True)
        if r.returncode:
            print('check-decode: the forms do not assemble:\n' + r.stderr[-2000:])
            return 1
        dump = subprocess.run(['objdump', '-d', '-M', 'intel', '-w', obj], capture_output=True, text=True).stdout
        lines = []
        for ln in dump.split('\n'):
            m = re.match(r'^\s*([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$', ln)
            if m:
                lines.append((int(m.group(1), 16), bytes.fromhex(m.group(2).replace(' ', '')), m.group(3)))
        decoded = 0
        for addr, code, text in lines:
            if code == b'\xcc':
                continue
            try:
                insn = evex.decode(code + b'\xcc' * 15, addr)
            except DecodeError as e:
                print('check-decode: %s (%s): refused: %s' % (text, code.hex(), e))
                bad += 1
                continue
            if insn is None:
                continue
            decoded += 1
            used.add(insn.mnemonic)
            mine, theirs = evex_text(insn), objdump_text(text)
            if insn.size != len(code) or mine != theirs:
                print('check-decode: %s: decoded %d bytes as "%s", objdump %d bytes "%s"'
                      % (code.hex(), insn.size, mine, len(code), theirs))
                bad += 1
    names = {e.mn for e in evex.EVEX.values()} | {e.mn for e in evex.VEXK.values()}
    for n in sorted(names - used):
        print('check-decode: %s: in the table, in no form' % n)
        bad += 1
    refused = 0
    for hexbytes, why in REFUSED:
        code = bytes.fromhex(hexbytes) + b'\x90' * 12
        try:
            insn = evex.decode(code, 0)
            got = None if insn is None else insn.text
        except DecodeError:
            got = 'refused'
        if hexbytes in CONTROLS:
            if got in (None, 'refused'):
                print('check-decode: control %s (%s) is not decoded: %s' % (hexbytes, why, got))
                bad += 1
        elif got != 'refused':
            print('check-decode: %s (%s) is not refused: %s' % (hexbytes, why, got or 'left to capstone'))
            bad += 1
        else:
            refused += 1
    print('check-decode: %d instructions decoded by hand, as objdump does; %d mnemonics of %d in the table; '
          '%d bad encodings refused; %d differences' % (decoded, len(used & names), len(names), refused, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
