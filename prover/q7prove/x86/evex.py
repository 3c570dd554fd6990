# SPDX-License-Identifier: BSD-3-Clause
"""The decoder of the AVX-512 encodings, by hand from the Intel SDM
(volume 2, 2.7 "Intel AVX-512 encoding" and each instruction's opcode
table): every EVEX instruction (62 ...) and the VEX opmask instructions
(k*) (and vbroadcasti128, which capstone 4 does not decode), which
capstone 4 decodes only in part (vpternlog, kmovq, vpcmpeqb
into k, vpshufb zmm, kshift*: not at all) and without the masking it
needs. Only the encodings in the table below decode; any other EVEX or
VEX k-instruction byte pattern, and any bit the SDM makes #UD (a reserved
bit, an unused vvvv that is not 1111, masking or zeroing or a broadcast
on an instruction without it, a vector length it does not have, a
prefix before 62) is a DecodeError naming the bytes: never a guess.

An instruction decodes to decode.Insn's plain record (mnemonic, operands
in Intel order, destination first; the opmask is not an operand) with:
  mask     the writemask register ('k1'..'k7') or None (k0: no masking)
  zeroing  EVEX.z: masked-off elements are zeroed, not merged
  bcast    the memory operand's element is broadcast (its count) or 0
  vl       the vector length in bits (128, 256, 512)
  ew       the element width in bits the mask applies to (or None)
  elements True where the memory operand's elements are the mask's
           (a masked-off element of it is neither read nor written and
           cannot fault: the SDM's fault suppression)
and a memory operand's disp8 scaled by N, the bytes it reaches (an
element for a broadcast or compress/expand).
"""
from q7prove.x86.decode import DecodeError, Insn, Operand

GPR64 = ['rax', 'rcx', 'rdx', 'rbx', 'rsp', 'rbp', 'rsi', 'rdi'] + ['r%d' % i for i in range(8, 16)]
GPR32 = ['eax', 'ecx', 'edx', 'ebx', 'esp', 'ebp', 'esi', 'edi'] + ['r%dd' % i for i in range(8, 16)]
VNAME = {128: 'xmm', 256: 'ymm', 512: 'zmm'}
PTR = {1: 'byte', 2: 'word', 4: 'dword', 8: 'qword', 16: 'xmmword', 32: 'ymmword', 64: 'zmmword'}
PP = {0: None, 1: 0x66, 2: 0xf3, 3: 0xf2}


class VInsn(Insn):
    __slots__ = ('mask', 'zeroing', 'bcast', 'vl', 'ew', 'elements')


class Entry:
    """One encoding: ops are (kind, size) pairs, kind one of
      V  vector register in ModRM.reg     H  vector register in vvvv
      W  vector register or memory in ModRM.rm
      U  vector register in ModRM.rm      M  memory in ModRM.rm
      KG opmask in ModRM.reg   KH opmask in vvvv   KR opmask in ModRM.rm (a register)
      KE opmask or memory in ModRM.rm
      G  general register in ModRM.reg    E  general register or memory in ModRM.rm
      R  general register in ModRM.rm     I  imm8
    and size a width in bits, 'vl', 'vl/2', 'vl/4', 'vl/8' or 'e' (the element).
    mask: 'm' merging or zeroing, 'k' an opmask destination (zeroing
    only, z must be 0), '-' none; bcast: a memory W may be broadcast;
    vls: the vector lengths it has; suppress: the memory operand's
    elements are the mask's; scalar_n: disp8 scales by the element (a
    compress or expand); bw: the broadcast element's width where it is not
    the mask's element (vpackssdw: dwords broadcast, words masked)."""
    __slots__ = ('mn', 'ops', 'ew', 'mask', 'bcast', 'vls', 'suppress', 'scalar_n', 'bw')

    def __init__(self, mn, ops, ew, mask, bcast, vls, suppress, scalar_n, bw=None):
        self.mn, self.ops, self.ew, self.mask, self.bcast = mn, ops, ew, mask, bcast
        self.vls, self.suppress, self.scalar_n = vls, suppress, scalar_n
        self.bw = bw or ew        # the broadcast element's width (a pack's source element)


EVEX = {}   # (map, pp, opcode, W or None, /digit or None) -> Entry
VEXK = {}   # the same for the VEX opmask instructions, with L in place of /digit
ALL = (128, 256, 512)
WIDE = (256, 512)


def _ops(spec):
    out = []
    for tok in spec.split():
        kind, _, size = tok.partition(':')
        out.append((kind, size if size in ('vl', 'vl/2', 'vl/4', 'vl/8', 'e', '') else int(size)))
    return tuple(out)


def e(mp, pp, op, mn, spec, ew=None, w=None, digit=None, mask='m', bcast=False, vls=ALL, suppress=True,
      scalar_n=False, bw=None):
    """An EVEX encoding; mn and ew may be pairs chosen by W (w None)."""
    for wv in ((0, 1) if w is None and isinstance(mn, tuple) else (w,)):
        name = mn[wv] if isinstance(mn, tuple) else mn
        width = ew[wv] if isinstance(ew, tuple) else ew
        if name is None:
            continue
        key = (mp, pp, op, wv, digit)
        assert key not in EVEX, key
        EVEX[key] = Entry(name, _ops(spec), width, mask, bcast, vls, suppress, scalar_n, bw)


# ---- the table -------------------------------------------------------------------
# moves
for _op, _st in ((0x6f, False), (0x7f, True)):
    _spec = 'W:vl V:vl' if _st else 'V:vl W:vl'
    e(1, 0x66, _op, ('vmovdqa32', 'vmovdqa64'), _spec, ew=(32, 64))
    e(1, 0xf3, _op, ('vmovdqu32', 'vmovdqu64'), _spec, ew=(32, 64))
    e(1, 0xf2, _op, ('vmovdqu8', 'vmovdqu16'), _spec, ew=(8, 16))
for _op, _st in ((0x10, False), (0x11, True)):
    _spec = 'W:vl V:vl' if _st else 'V:vl W:vl'
    e(1, None, _op, 'vmovups', _spec, ew=32, w=0)
    e(1, 0x66, _op, 'vmovupd', _spec, ew=64, w=1)
for _op, _st in ((0x28, False), (0x29, True)):
    _spec = 'W:vl V:vl' if _st else 'V:vl W:vl'
    e(1, None, _op, 'vmovaps', _spec, ew=32, w=0)
    e(1, 0x66, _op, 'vmovapd', _spec, ew=64, w=1)
e(1, 0x66, 0xe7, 'vmovntdq', 'M:vl V:vl', w=0, mask='-')
e(1, 0x66, 0x6e, ('vmovd', 'vmovq'), 'V:128 E:', mask='-', vls=(128,))
e(1, 0x66, 0x7e, ('vmovd', 'vmovq'), 'E: V:128', mask='-', vls=(128,))
e(1, 0xf3, 0x7e, 'vmovq', 'V:128 W:64', w=1, mask='-', vls=(128,))
e(1, 0x66, 0xd6, 'vmovq', 'W:64 V:128', w=1, mask='-', vls=(128,))
# logic, add, subtract (full vector, broadcast for dwords and qwords)
for _op, _n in ((0xdb, 'vpand'), (0xdf, 'vpandn'), (0xeb, 'vpor'), (0xef, 'vpxor')):
    e(1, 0x66, _op, (_n + 'd', _n + 'q'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
for _op, _n in ((0x54, 'vand'), (0x55, 'vandn'), (0x56, 'vor'), (0x57, 'vxor')):
    e(1, None, _op, _n + 'ps', 'V:vl H:vl W:vl', ew=32, w=0, bcast=True)
    e(1, 0x66, _op, _n + 'pd', 'V:vl H:vl W:vl', ew=64, w=1, bcast=True)
for _op, _n, _ew in ((0xfc, 'vpaddb', 8), (0xfd, 'vpaddw', 16), (0xf8, 'vpsubb', 8), (0xf9, 'vpsubw', 16),
                     (0xda, 'vpminub', 8), (0xde, 'vpmaxub', 8), (0xea, 'vpminsw', 16), (0xee, 'vpmaxsw', 16),
                     (0xe0, 'vpavgb', 8), (0xe3, 'vpavgw', 16), (0xd5, 'vpmullw', 16),
                     (0xdc, 'vpaddusb', 8), (0xdd, 'vpaddusw', 16), (0xec, 'vpaddsb', 8), (0xed, 'vpaddsw', 16),
                     (0xd8, 'vpsubusb', 8), (0xd9, 'vpsubusw', 16), (0xe8, 'vpsubsb', 8), (0xe9, 'vpsubsw', 16)):
    e(1, 0x66, _op, _n, 'V:vl H:vl W:vl', ew=_ew)
e(1, 0x66, 0xfe, 'vpaddd', 'V:vl H:vl W:vl', ew=32, w=0, bcast=True)
e(1, 0x66, 0xd4, 'vpaddq', 'V:vl H:vl W:vl', ew=64, w=1, bcast=True)
e(1, 0x66, 0xfa, 'vpsubd', 'V:vl H:vl W:vl', ew=32, w=0, bcast=True)
e(1, 0x66, 0xfb, 'vpsubq', 'V:vl H:vl W:vl', ew=64, w=1, bcast=True)
e(1, 0x66, 0xf4, 'vpmuludq', 'V:vl H:vl W:vl', ew=64, w=1, bcast=True)
# compares into an opmask
for _op, _n in ((0x74, 'vpcmpeqb'), (0x75, 'vpcmpeqw'), (0x64, 'vpcmpgtb'), (0x65, 'vpcmpgtw')):
    e(1, 0x66, _op, _n, 'KG: H:vl W:vl', ew=8 if _n.endswith('b') else 16, mask='k')
e(1, 0x66, 0x76, 'vpcmpeqd', 'KG: H:vl W:vl', ew=32, w=0, mask='k', bcast=True)
e(1, 0x66, 0x66, 'vpcmpgtd', 'KG: H:vl W:vl', ew=32, w=0, mask='k', bcast=True)
e(2, 0x66, 0x29, 'vpcmpeqq', 'KG: H:vl W:vl', ew=64, w=1, mask='k', bcast=True)
e(2, 0x66, 0x37, 'vpcmpgtq', 'KG: H:vl W:vl', ew=64, w=1, mask='k', bcast=True)
e(3, 0x66, 0x3f, ('vpcmpb', 'vpcmpw'), 'KG: H:vl W:vl I:', ew=(8, 16), mask='k')
e(3, 0x66, 0x3e, ('vpcmpub', 'vpcmpuw'), 'KG: H:vl W:vl I:', ew=(8, 16), mask='k')
e(3, 0x66, 0x1f, ('vpcmpd', 'vpcmpq'), 'KG: H:vl W:vl I:', ew=(32, 64), mask='k', bcast=True)
e(3, 0x66, 0x1e, ('vpcmpud', 'vpcmpuq'), 'KG: H:vl W:vl I:', ew=(32, 64), mask='k', bcast=True)
e(2, 0x66, 0x26, ('vptestmb', 'vptestmw'), 'KG: H:vl W:vl', ew=(8, 16), mask='k')
e(2, 0x66, 0x27, ('vptestmd', 'vptestmq'), 'KG: H:vl W:vl', ew=(32, 64), mask='k', bcast=True)
e(2, 0xf3, 0x26, ('vptestnmb', 'vptestnmw'), 'KG: H:vl W:vl', ew=(8, 16), mask='k')
e(2, 0xf3, 0x27, ('vptestnmd', 'vptestnmq'), 'KG: H:vl W:vl', ew=(32, 64), mask='k', bcast=True)
# opmask <-> vector
e(2, 0xf3, 0x28, ('vpmovm2b', 'vpmovm2w'), 'V:vl KR:', ew=(8, 16), mask='-')
e(2, 0xf3, 0x38, ('vpmovm2d', 'vpmovm2q'), 'V:vl KR:', ew=(32, 64), mask='-')
e(2, 0xf3, 0x29, ('vpmovb2m', 'vpmovw2m'), 'KG: U:vl', ew=(8, 16), mask='-')
e(2, 0xf3, 0x39, ('vpmovd2m', 'vpmovq2m'), 'KG: U:vl', ew=(32, 64), mask='-')
# ternary logic, blends
e(3, 0x66, 0x25, ('vpternlogd', 'vpternlogq'), 'V:vl H:vl W:vl I:', ew=(32, 64), bcast=True)
e(2, 0x66, 0x66, ('vpblendmb', 'vpblendmw'), 'V:vl H:vl W:vl', ew=(8, 16))
e(2, 0x66, 0x64, ('vpblendmd', 'vpblendmq'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
e(2, 0x66, 0x65, ('vblendmps', 'vblendmpd'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
# permutes and shuffles (no fault suppression: memory elements are not the destination's)
e(2, 0x66, 0x00, 'vpshufb', 'V:vl H:vl W:vl', ew=8, suppress=False)
e(1, 0x66, 0x70, 'vpshufd', 'V:vl W:vl I:', ew=32, w=0, bcast=True, suppress=False)
e(1, 0xf3, 0x70, 'vpshufhw', 'V:vl W:vl I:', ew=16, suppress=False)
e(1, 0xf2, 0x70, 'vpshuflw', 'V:vl W:vl I:', ew=16, suppress=False)
e(2, 0x66, 0x36, ('vpermd', 'vpermq'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True, vls=WIDE, suppress=False)
e(3, 0x66, 0x00, 'vpermq', 'V:vl W:vl I:', ew=64, w=1, bcast=True, vls=WIDE, suppress=False)
e(2, 0x66, 0x8d, ('vpermb', 'vpermw'), 'V:vl H:vl W:vl', ew=(8, 16), suppress=False)
e(2, 0x66, 0x0c, 'vpermilps', 'V:vl H:vl W:vl', ew=32, w=0, bcast=True, suppress=False)
e(3, 0x66, 0x04, 'vpermilps', 'V:vl W:vl I:', ew=32, w=0, bcast=True, suppress=False)
e(2, 0x66, 0x76, ('vpermi2d', 'vpermi2q'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True, suppress=False)
e(2, 0x66, 0x7e, ('vpermt2d', 'vpermt2q'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True, suppress=False)
e(2, 0x66, 0x75, ('vpermi2b', 'vpermi2w'), 'V:vl H:vl W:vl', ew=(8, 16), suppress=False)
e(2, 0x66, 0x7d, ('vpermt2b', 'vpermt2w'), 'V:vl H:vl W:vl', ew=(8, 16), suppress=False)
e(3, 0x66, 0x43, ('vshufi32x4', 'vshufi64x2'), 'V:vl H:vl W:vl I:', ew=(32, 64), bcast=True, vls=WIDE,
  suppress=False)
e(3, 0x66, 0x03, ('valignd', 'valignq'), 'V:vl H:vl W:vl I:', ew=(32, 64), bcast=True, suppress=False)
e(3, 0x66, 0x0f, 'vpalignr', 'V:vl H:vl W:vl I:', ew=8, suppress=False)
for _op, _n, _ew, _w in ((0x60, 'vpunpcklbw', 8, None), (0x61, 'vpunpcklwd', 16, None), (0x62, 'vpunpckldq', 32, 0),
                         (0x6c, 'vpunpcklqdq', 64, 1), (0x68, 'vpunpckhbw', 8, None), (0x69, 'vpunpckhwd', 16, None),
                         (0x6a, 'vpunpckhdq', 32, 0), (0x6d, 'vpunpckhqdq', 64, 1), (0x67, 'vpackuswb', 8, None),
                         (0x63, 'vpacksswb', 8, None)):
    e(1, 0x66, _op, _n, 'V:vl H:vl W:vl', ew=_ew, w=_w, bcast=_w is not None, suppress=False)
e(1, 0x66, 0x6b, 'vpackssdw', 'V:vl H:vl W:vl', ew=16, w=0, bcast=True, suppress=False, bw=32)
e(2, 0x66, 0x2b, 'vpackusdw', 'V:vl H:vl W:vl', ew=16, w=0, bcast=True, suppress=False, bw=32)
e(1, None, 0x14, 'vunpcklps', 'V:vl H:vl W:vl', ew=32, w=0, bcast=True, suppress=False)
e(1, None, 0x15, 'vunpckhps', 'V:vl H:vl W:vl', ew=32, w=0, bcast=True, suppress=False)
e(1, 0x66, 0x14, 'vunpcklpd', 'V:vl H:vl W:vl', ew=64, w=1, bcast=True, suppress=False)
e(1, 0x66, 0x15, 'vunpckhpd', 'V:vl H:vl W:vl', ew=64, w=1, bcast=True, suppress=False)
e(1, None, 0xc6, 'vshufps', 'V:vl H:vl W:vl I:', ew=32, w=0, bcast=True, suppress=False)
e(1, 0x66, 0xc6, 'vshufpd', 'V:vl H:vl W:vl I:', ew=64, w=1, bcast=True, suppress=False)
# compress and expand: the memory operand is the set elements, packed
e(2, 0x66, 0x8b, ('vpcompressd', 'vpcompressq'), 'W:vl V:vl', ew=(32, 64), scalar_n=True)
e(2, 0x66, 0x89, ('vpexpandd', 'vpexpandq'), 'V:vl W:vl', ew=(32, 64), scalar_n=True)
# broadcasts (a masked broadcast from memory reads its element whatever the mask)
e(2, 0x66, 0x78, 'vpbroadcastb', 'V:vl W:8', ew=8, w=0, suppress=False)
e(2, 0x66, 0x79, 'vpbroadcastw', 'V:vl W:16', ew=16, w=0, suppress=False)
e(2, 0x66, 0x58, 'vpbroadcastd', 'V:vl W:32', ew=32, w=0, suppress=False)
e(2, 0x66, 0x59, 'vpbroadcastq', 'V:vl W:64', ew=64, w=1, suppress=False)
e(2, 0x66, 0x59, 'vbroadcasti32x2', 'V:vl W:64', ew=32, w=0, suppress=False)
e(2, 0x66, 0x7a, 'vpbroadcastb', 'V:vl R:32', ew=8, w=0)
e(2, 0x66, 0x7b, 'vpbroadcastw', 'V:vl R:32', ew=16, w=0)
e(2, 0x66, 0x7c, ('vpbroadcastd', 'vpbroadcastq'), 'V:vl R:', ew=(32, 64))
e(2, 0x66, 0x5a, ('vbroadcasti32x4', 'vbroadcasti64x2'), 'V:vl M:128', ew=(32, 64), vls=WIDE, suppress=False)
e(2, 0x66, 0x5b, ('vbroadcasti32x8', 'vbroadcasti64x4'), 'V:vl M:256', ew=(32, 64), vls=(512,), suppress=False)
e(2, 0x66, 0x18, 'vbroadcastss', 'V:vl W:32', ew=32, w=0, suppress=False)
e(2, 0x66, 0x19, 'vbroadcastsd', 'V:vl W:64', ew=64, w=1, vls=WIDE, suppress=False)
# inserts and extracts of 128 and 256 bits
e(3, 0x66, 0x38, ('vinserti32x4', 'vinserti64x2'), 'V:vl H:vl W:128 I:', ew=(32, 64), vls=WIDE, suppress=False)
e(3, 0x66, 0x3a, ('vinserti32x8', 'vinserti64x4'), 'V:vl H:vl W:256 I:', ew=(32, 64), vls=(512,),
  suppress=False)
e(3, 0x66, 0x18, ('vinsertf32x4', 'vinsertf64x2'), 'V:vl H:vl W:128 I:', ew=(32, 64), vls=WIDE, suppress=False)
e(3, 0x66, 0x1a, ('vinsertf32x8', 'vinsertf64x4'), 'V:vl H:vl W:256 I:', ew=(32, 64), vls=(512,),
  suppress=False)
e(3, 0x66, 0x39, ('vextracti32x4', 'vextracti64x2'), 'W:128 V:vl I:', ew=(32, 64), vls=WIDE)
e(3, 0x66, 0x3b, ('vextracti32x8', 'vextracti64x4'), 'W:256 V:vl I:', ew=(32, 64), vls=(512,))
e(3, 0x66, 0x19, ('vextractf32x4', 'vextractf64x2'), 'W:128 V:vl I:', ew=(32, 64), vls=WIDE)
e(3, 0x66, 0x1b, ('vextractf32x8', 'vextractf64x4'), 'W:256 V:vl I:', ew=(32, 64), vls=(512,))
e(3, 0x66, 0x20, 'vpinsrb', 'V:128 H:128 E:8 I:', mask='-', vls=(128,))
e(1, 0x66, 0xc4, 'vpinsrw', 'V:128 H:128 E:16 I:', mask='-', vls=(128,))
e(3, 0x66, 0x22, ('vpinsrd', 'vpinsrq'), 'V:128 H:128 E: I:', mask='-', vls=(128,))
e(3, 0x66, 0x14, 'vpextrb', 'E:8 V:128 I:', mask='-', vls=(128,))
e(3, 0x66, 0x15, 'vpextrw', 'E:16 V:128 I:', mask='-', vls=(128,))
e(1, 0x66, 0xc5, 'vpextrw', 'G:32 U:128 I:', mask='-', vls=(128,))
e(3, 0x66, 0x16, ('vpextrd', 'vpextrq'), 'E: V:128 I:', mask='-', vls=(128,))
# widening and narrowing moves: the narrow operand's elements are the mask's
for _op, _n, _frac in ((0x30, 'bw', 'vl/2'), (0x31, 'bd', 'vl/4'), (0x32, 'bq', 'vl/8'), (0x33, 'wd', 'vl/2'),
                       (0x34, 'wq', 'vl/4'), (0x35, 'dq', 'vl/2')):
    _ew = {'w': 16, 'd': 32, 'q': 64}[_n[1]]
    _wv = 0 if _n == 'dq' else None
    e(2, 0x66, _op, 'vpmovzx' + _n, 'V:vl W:' + _frac, ew=_ew, w=_wv)
    e(2, 0x66, _op - 0x10, 'vpmovsx' + _n, 'V:vl W:' + _frac, ew=_ew, w=_wv)
    _small = {'b': 8, 'w': 16, 'd': 32}[_n[0]]
    e(2, 0xf3, _op, 'vpmov' + _n[1] + _n[0], 'W:' + _frac + ' V:vl', ew=_small, w=0)
# shifts: by an immediate (the destination in vvvv), by xmm's low quadword, by each element
for _op, _digit, _n, _ew, _w in ((0x71, 2, 'vpsrlw', 16, None), (0x71, 4, 'vpsraw', 16, None),
                                 (0x71, 6, 'vpsllw', 16, None), (0x72, 2, 'vpsrld', 32, 0),
                                 (0x72, 4, 'vpsrad', 32, 0), (0x72, 4, 'vpsraq', 64, 1), (0x72, 6, 'vpslld', 32, 0),
                                 (0x73, 2, 'vpsrlq', 64, 1), (0x73, 6, 'vpsllq', 64, 1),
                                 (0x72, 0, 'vprord', 32, 0), (0x72, 0, 'vprorq', 64, 1),
                                 (0x72, 1, 'vprold', 32, 0), (0x72, 1, 'vprolq', 64, 1)):
    e(1, 0x66, _op, _n, 'H:vl W:vl I:', ew=_ew, w=_w, digit=_digit, bcast=_w is not None)
e(1, 0x66, 0x73, 'vpsrldq', 'H:vl W:vl I:', digit=3, mask='-', suppress=False)
e(1, 0x66, 0x73, 'vpslldq', 'H:vl W:vl I:', digit=7, mask='-', suppress=False)
for _op, _n, _ew, _w in ((0xd1, 'vpsrlw', 16, None), (0xd2, 'vpsrld', 32, 0), (0xd3, 'vpsrlq', 64, 1),
                         (0xe1, 'vpsraw', 16, None), (0xe2, 'vpsrad', 32, 0), (0xe2, 'vpsraq', 64, 1),
                         (0xf1, 'vpsllw', 16, None), (0xf2, 'vpslld', 32, 0), (0xf3, 'vpsllq', 64, 1)):
    e(1, 0x66, _op, _n, 'V:vl H:vl W:128', ew=_ew, w=_w, suppress=False)
e(2, 0x66, 0x45, ('vpsrlvd', 'vpsrlvq'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
e(2, 0x66, 0x46, ('vpsravd', 'vpsravq'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
e(2, 0x66, 0x47, ('vpsllvd', 'vpsllvq'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
e(2, 0x66, 0x10, 'vpsrlvw', 'V:vl H:vl W:vl', ew=16, w=1)
e(2, 0x66, 0x11, 'vpsravw', 'V:vl H:vl W:vl', ew=16, w=1)
e(2, 0x66, 0x12, 'vpsllvw', 'V:vl H:vl W:vl', ew=16, w=1)
# minimum, maximum, absolute value, multiply
for _op, _n in ((0x38, 'vpminsb'), (0x3a, 'vpminuw'), (0x3c, 'vpmaxsb'), (0x3e, 'vpmaxuw')):
    e(2, 0x66, _op, _n, 'V:vl H:vl W:vl', ew=8 if _n.endswith('b') else 16)
for _op, _n in ((0x39, 'vpmins'), (0x3b, 'vpminu'), (0x3d, 'vpmaxs'), (0x3f, 'vpmaxu')):
    e(2, 0x66, _op, (_n + 'd', _n + 'q'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)
e(2, 0x66, 0x1c, 'vpabsb', 'V:vl W:vl', ew=8)
e(2, 0x66, 0x1d, 'vpabsw', 'V:vl W:vl', ew=16)
e(2, 0x66, 0x1e, 'vpabsd', 'V:vl W:vl', ew=32, w=0, bcast=True)
e(2, 0x66, 0x1f, 'vpabsq', 'V:vl W:vl', ew=64, w=1, bcast=True)
e(2, 0x66, 0x40, ('vpmulld', 'vpmullq'), 'V:vl H:vl W:vl', ew=(32, 64), bcast=True)


def k(mp, pp, op, L, mn, spec, w):
    key = (mp, pp, op, w, L)
    assert key not in VEXK, key
    VEXK[key] = Entry(mn, _ops(spec), None, '-', False, (128,), False, False)


for _op, _n in ((0x41, 'kand'), (0x42, 'kandn'), (0x45, 'kor'), (0x46, 'kxnor'), (0x47, 'kxor'), (0x4a, 'kadd')):
    for _pp, _w, _s in ((0x66, 0, 'b'), (None, 0, 'w'), (0x66, 1, 'd'), (None, 1, 'q')):
        k(1, _pp, _op, 1, _n + _s, 'KG: KH: KR:', _w)
for _pp, _w, _s in ((0x66, 0, 'b'), (None, 0, 'w'), (0x66, 1, 'd'), (None, 1, 'q')):
    k(1, _pp, 0x44, 0, 'knot' + _s, 'KG: KR:', _w)
    k(1, _pp, 0x98, 0, 'kortest' + _s, 'KG: KR:', _w)
    k(1, _pp, 0x99, 0, 'ktest' + _s, 'KG: KR:', _w)
    k(1, _pp, 0x90, 0, 'kmov' + _s, 'KG: KE:' + str({'b': 8, 'w': 16, 'd': 32, 'q': 64}[_s]), _w)
    k(1, _pp, 0x91, 0, 'kmov' + _s, 'M:%d KG:' % {'b': 8, 'w': 16, 'd': 32, 'q': 64}[_s], _w)
for _pp, _w, _s, _g in ((0x66, 0, 'b', 32), (None, 0, 'w', 32), (0xf2, 0, 'd', 32), (0xf2, 1, 'q', 64)):
    k(1, _pp, 0x92, 0, 'kmov' + _s, 'KG: R:%d' % _g, _w)
    k(1, _pp, 0x93, 0, 'kmov' + _s, 'G:%d KR:' % _g, _w)
k(1, 0x66, 0x4b, 1, 'kunpckbw', 'KG: KH: KR:', 0)
k(1, None, 0x4b, 1, 'kunpckwd', 'KG: KH: KR:', 0)
k(1, None, 0x4b, 1, 'kunpckdq', 'KG: KH: KR:', 1)
# a VEX instruction capstone 4 does not decode
k(2, 0x66, 0x5a, 1, 'vbroadcasti128', 'V:256 M:128', 0)
for _op, _n in ((0x30, ('kshiftrb', 'kshiftrw')), (0x31, ('kshiftrd', 'kshiftrq')),
                (0x32, ('kshiftlb', 'kshiftlw')), (0x33, ('kshiftld', 'kshiftlq'))):
    for _w in (0, 1):
        k(3, 0x66, _op, 0, _n[_w], 'KG: KR: I:', _w)


# ---- the decoder -------------------------------------------------------------------

LEGACY = {0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67, 0xf0, 0xf2, 0xf3}


def decode(code, addr):
    """The instruction at the start of code if it is one of this module's
    encodings, None if capstone is to decode it; DecodeError for bytes that
    are an EVEX or opmask instruction this decoder does not accept."""
    if not code:
        return None
    if code[0] == 0x62:
        return _evex(code, addr)
    if code[0] in (0xc4, 0xc5):
        return _vex_k(code, addr)
    n = 0
    while n < len(code) and (code[n] in LEGACY or 0x40 <= code[n] <= 0x4f):
        n += 1
    if 0 < n < len(code) and (code[n] == 0x62 or (code[n] in (0xc4, 0xc5) and _is_vex_k(code[n:]))):
        raise DecodeError('an EVEX or VEX instruction after the prefix bytes %s at %#x (#UD, or not modelled)'
                          % (code[:n].hex(), addr))
    return None


def _bad(code, addr, why):
    raise DecodeError('%s: bytes %s at %#x' % (why, code[:8].hex(), addr))


def _evex(code, addr):
    if len(code) < 6:
        _bad(code, addr, 'a truncated EVEX instruction')
    p0, p1, p2 = code[1], code[2], code[3]
    if p0 & 0x0c or not p1 & 0x04:
        _bad(code, addr, 'an EVEX prefix with a reserved bit set')
    mp = p0 & 3
    R, X, B, R2 = (~p0 >> 7) & 1, (~p0 >> 6) & 1, (~p0 >> 5) & 1, (~p0 >> 4) & 1
    W, vvvv, pp = p1 >> 7, (~p1 >> 3) & 15, PP[p1 & 3]
    z, LL, b, V2, aaa = p2 >> 7, (p2 >> 5) & 3, (p2 >> 4) & 1, (~p2 >> 3) & 1, p2 & 7
    op = code[4]
    modrm = code[5]
    mod, reg = modrm >> 6, (modrm >> 3) & 7
    ent = None
    for key in ((mp, pp, op, W, reg), (mp, pp, op, None, reg), (mp, pp, op, W, None), (mp, pp, op, None, None)):
        ent = EVEX.get(key)
        if ent is not None:
            break
    if ent is None or mp == 0:
        _bad(code, addr, 'an EVEX encoding the prover does not model (map %d, opcode %02x)' % (mp, op))
    if LL == 3:
        _bad(code, addr, 'EVEX.L\'L = 3')
    vl = 128 << LL
    if vl not in ent.vls:
        _bad(code, addr, '%s at %d bits (#UD)' % (ent.mn, vl))
    f = _Fields(code, addr, 4, R, X, B, R2, vvvv | (V2 << 4), W, vl, ent, True)
    if b and (not ent.bcast or mod == 3):
        _bad(code, addr, 'EVEX.b on %s %s' % (ent.mn, 'with a register operand (rounding control)' if mod == 3
                                              else 'which has no broadcast'))
    if ent.mask == '-' and (aaa or z):
        _bad(code, addr, 'masking on %s, which has none (#UD)' % ent.mn)
    if ent.mask == 'k' and z:
        _bad(code, addr, 'zeroing-masking on %s, which writes an opmask (#UD)' % ent.mn)
    if z and not aaa:
        _bad(code, addr, 'EVEX.z without a mask')
    f.bcast = b
    ops = f.operands()
    if z and any(o.kind == 'mem' for o in ops[:1]):
        _bad(code, addr, 'zeroing-masking on a store (#UD)')
    insn = VInsn(addr, f.end, ent.mn, ops, set(), '')
    insn.mask = 'k%d' % aaa if aaa else None
    insn.zeroing = bool(z)
    insn.bcast = vl // ent.bw if b else 0
    insn.vl, insn.ew, insn.elements = vl, ent.ew, ent.suppress
    insn.text = _text(insn)
    return insn


def _is_vex_k(code):
    try:
        return _vex_fields(code)[0] is not None
    except IndexError:
        return False


def _vex_fields(code):
    if code[0] == 0xc5:
        R, X, B, mp, W = (~code[1] >> 7) & 1, 0, 0, 1, 0
        vvvv, L, pp, at = (~code[1] >> 3) & 15, (code[1] >> 2) & 1, PP[code[1] & 3], 2
    else:
        R, X, B, mp = (~code[1] >> 7) & 1, (~code[1] >> 6) & 1, (~code[1] >> 5) & 1, code[1] & 31
        W, vvvv, L, pp, at = code[2] >> 7, (~code[2] >> 3) & 15, (code[2] >> 2) & 1, PP[code[2] & 3], 3
    op = code[at]
    ent = VEXK.get((mp, pp, op, W, L))
    if ent is None and any(key[:3] == (mp, pp, op) for key in VEXK):
        ent = False               # an opmask opcode with another W or L: refused, not handed to capstone
    return ent, R, X, B, W, vvvv, at


def _vex_k(code, addr):
    if len(code) < 4:
        return None
    ent, R, X, B, W, vvvv, at = _vex_fields(code)
    if ent is None:
        return None
    if ent is False:
        _bad(code, addr, 'an opmask instruction with a VEX.W or VEX.L it does not have (#UD)')
    f = _Fields(code, addr, at, R, X, B, 0, vvvv, W, 128, ent, False)
    ops = f.operands()
    insn = VInsn(addr, f.end, ent.mn, ops, set(), '')
    insn.mask, insn.zeroing, insn.bcast, insn.vl, insn.ew, insn.elements = None, False, 0, 128, None, False
    insn.text = _text(insn)
    return insn


class _Fields:
    """The operands of one instruction from its ModRM, SIB, displacement
    and immediate bytes (at is the opcode's offset)."""

    def __init__(self, code, addr, at, R, X, B, R2, vvvv, W, vl, ent, evex):
        self.code, self.addr, self.at = code, addr, at
        self.R, self.X, self.B, self.R2, self.vvvv, self.W, self.vl, self.ent = R, X, B, R2, vvvv, W, vl, ent
        self.bcast = 0
        self.end = None
        self.evex = evex          # an EVEX disp8 is scaled (disp8*N), a VEX one is not

    def size(self, s, kind):
        if s == 'vl':
            return self.vl
        if s == 'e':
            return self.ent.ew
        if isinstance(s, str) and s.startswith('vl/'):
            return self.vl // int(s[3:])
        if s == '':
            return 64 if self.W else 32     # a general register or memory word by W
        return s

    def operands(self):
        code, ent = self.code, self.ent
        if len(code) < self.at + 2:
            _bad(code, self.addr, 'a truncated instruction')
        modrm = code[self.at + 1]
        mod, reg, rm = modrm >> 6, (modrm >> 3) & 7, modrm & 7
        p = self.at + 2
        kinds = [k for k, _ in ent.ops]
        uses_vvvv = any(k in ('H', 'KH') for k in kinds)
        if not uses_vvvv and self.vvvv != 0:
            _bad(code, self.addr, '%s with a vvvv that is not 1111 (#UD)' % ent.mn)
        mem = None
        rm_op = next((k for k in kinds if k in ('W', 'U', 'M', 'E', 'R', 'KR', 'KE')), None)
        if mod != 3:
            if rm_op in ('U', 'R', 'KR'):
                _bad(code, self.addr, '%s with a memory operand (#UD)' % ent.mn)
            mem, p = self._memory(mod, rm, p)
        elif rm_op == 'M':
            _bad(code, self.addr, '%s with a register where memory is required (#UD)' % ent.mn)
        out = []
        for kind, s in ent.ops:
            if kind == 'I':
                if len(code) <= p:
                    _bad(code, self.addr, 'a truncated immediate')
                out.append(Operand('imm', 1, imm=code[p]))
                p += 1
                continue
            bits = self.size(s, kind)
            if kind == 'V':
                out.append(Operand('reg', bits // 8, reg='%s%d' % (VNAME[bits], reg | self.R << 3 | self.R2 << 4)))
            elif kind == 'H':
                out.append(Operand('reg', bits // 8, reg='%s%d' % (VNAME[bits], self.vvvv)))
            elif kind in ('KG', 'G'):
                if self.R2 or (kind == 'KG' and self.R):
                    _bad(code, self.addr, '%s with EVEX.R\' or R naming a register that does not exist' % ent.mn)
                if kind == 'KG':
                    out.append(Operand('reg', 8, reg='k%d' % reg))
                else:
                    out.append(Operand('reg', bits // 8, reg=(GPR64 if bits == 64 else GPR32)[reg | self.R << 3]))
            elif kind == 'KH':
                if self.vvvv > 7:
                    _bad(code, self.addr, '%s naming an opmask register past k7 in vvvv' % ent.mn)
                out.append(Operand('reg', 8, reg='k%d' % self.vvvv))
            elif mod != 3:
                out.append(_with(mem, ent.bw // 8 if self.bcast else bits // 8))
            elif kind in ('KR', 'KE'):
                if self.B or self.X:
                    _bad(code, self.addr, '%s naming an opmask register past k7' % ent.mn)
                out.append(Operand('reg', 8, reg='k%d' % rm))
            elif kind in ('E', 'R'):
                if self.X:
                    _bad(code, self.addr, '%s with EVEX.X set on a general register' % ent.mn)
                out.append(Operand('reg', max(bits, 32) // 8, reg=(GPR64 if bits == 64 else GPR32)[rm | self.B << 3]))
            else:                  # a narrower operand in a register: the low bits of an xmm or ymm
                rbits = max(bits, 128)
                out.append(Operand('reg', rbits // 8, reg='%s%d' % (VNAME[rbits], rm | self.B << 3 | self.X << 4)))
        self.end = p
        # the disp8 scale: the bytes the memory operand reaches, an element
        # for a broadcast or a compress/expand
        if mem is not None and mem.disp8 is not None:
            m_op = next(o for o in out if o.kind == 'mem')
            n = 1 if not self.evex else ent.bw // 8 if self.bcast else ent.ew // 8 if ent.scalar_n else m_op.size
            for o in out:
                if o.kind == 'mem':
                    o.disp = mem.disp8 * n
        return out

    def _memory(self, mod, rm, p):
        code = self.code
        base, index, scale, disp, disp8 = None, None, 1, 0, None
        if rm == 4:
            if len(code) <= p:
                _bad(code, self.addr, 'a truncated SIB byte')
            sib = code[p]
            p += 1
            ss, idx, bs = sib >> 6, (sib >> 3) & 7, sib & 7
            idx |= self.X << 3
            if idx != 4:
                index, scale = GPR64[idx], 1 << ss
            if bs == 5 and mod == 0:
                base = None
                disp, p = _signed(code, p, 4, self.addr), p + 4
            else:
                base = GPR64[bs | self.B << 3]
        elif rm == 5 and mod == 0:
            base = 'rip'
            disp, p = _signed(code, p, 4, self.addr), p + 4
        else:
            base = GPR64[rm | self.B << 3]
        if mod == 1:
            disp8, p = _signed(code, p, 1, self.addr), p + 1
        elif mod == 2:
            disp, p = _signed(code, p, 4, self.addr), p + 4
        return _Mem(base, index, scale, disp, disp8), p


class _Mem:
    __slots__ = ('base', 'index', 'scale', 'disp', 'disp8')

    def __init__(self, base, index, scale, disp, disp8):
        self.base, self.index, self.scale, self.disp, self.disp8 = base, index, scale, disp, disp8


def _with(mem, size):
    return Operand('mem', size, base=mem.base, index=mem.index, scale=mem.scale, disp=mem.disp)


def _signed(code, p, n, addr):
    if len(code) < p + n:
        raise DecodeError('a truncated displacement at %#x' % addr)
    v = int.from_bytes(code[p:p + n], 'little')
    return v - (1 << (8 * n)) if v >> (8 * n - 1) else v


def _text(insn):
    parts = []
    for k, o in enumerate(insn.ops):
        if o.kind == 'reg':
            s = o.reg
        elif o.kind == 'imm':
            s = hex(o.imm)
        else:
            addr = ' + '.join(x for x in (o.base, '%s*%d' % (o.index, o.scale) if o.index else None) if x)
            if o.disp or not addr:
                addr += (' - %#x' % -o.disp if o.disp < 0 else (' + ' if addr else '') + hex(o.disp))
            s = '%s ptr [%s]' % (PTR.get(o.size, '?'), addr)
            if insn.bcast:
                s += '{1to%d}' % insn.bcast
        if k == 0 and insn.mask:
            s += ' {%s}%s' % (insn.mask, '{z}' if insn.zeroing else '')
        parts.append(s)
    return ('%s %s' % (insn.mnemonic, ', '.join(parts))).strip()
