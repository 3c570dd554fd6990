# SPDX-License-Identifier: BSD-3-Clause
"""The instruction table's rows (x86/table.py, same notation) for the
SSE2 saturating/min/max/average/pack forms, SSSE3, SSE4.1, SSE4.2
(crc32), AVX2's lane-crossing and variable-shift forms, F16C and BMI1/BMI2:
the models of x86/simd.py and x86/bitmanip.py. The EVEX and opmask
instructions are x86/evex.py's table, not rows here.
"""
from q7prove.x86 import bitmanip, simd
from q7prove.x86.table import E, Row, both, v128

M, B = simd.MODELS, bitmanip.MODELS
INT = 'osize seg'


def sse_vex(name, legacy, vex, feature='base', f256='AVX2'):
    """name (legacy encoding) and vname (its VEX.128 and VEX.256 ones)."""
    return [Row(name, M[name], legacy, feature=feature), Row('v' + name, M['v' + name], *both(vex, f256))]


def vex_lz(name, feature, *specs):
    """A BMI row: each spec at W0 (32 bits) and W1 (64 bits)."""
    encs = [E(s.replace('.W ', w), feature) for s in specs for w in ('.W0 ', '.W1 ')]
    return Row(name, B[name], *encs)


ROWS = []
# ---- SSE2 integer forms and their VEX ones (66 0f xx)
for _n, _op in (('pminub', 0xda), ('pmaxub', 0xde), ('pminsw', 0xea), ('pmaxsw', 0xee), ('pavgb', 0xe0),
                ('pavgw', 0xe3), ('paddsb', 0xec), ('paddsw', 0xed), ('paddusb', 0xdc), ('paddusw', 0xdd),
                ('psubsb', 0xe8), ('psubsw', 0xe9), ('psubusb', 0xd8), ('psubusw', 0xd9), ('pmullw', 0xd5),
                ('pmuludq', 0xf4), ('packsswb', 0x63), ('packuswb', 0x67), ('packssdw', 0x6b)):
    ROWS += sse_vex(_n, '66 0f %02x /r' % _op, 'VEX.NDS.L.66.0F.WIG %02x /r' % _op)
# ---- 66 0f 38 xx: two sources (SSSE3, SSE4.1)
for _n, _op, _f in (('pshufb', 0x00, 'SSSE3'), ('pmuldq', 0x28, 'SSE4.1'), ('packusdw', 0x2b, 'SSE4.1'),
                    ('pminsb', 0x38, 'SSE4.1'), ('pminsd', 0x39, 'SSE4.1'), ('pminuw', 0x3a, 'SSE4.1'),
                    ('pminud', 0x3b, 'SSE4.1'), ('pmaxsb', 0x3c, 'SSE4.1'), ('pmaxsd', 0x3d, 'SSE4.1'),
                    ('pmaxuw', 0x3e, 'SSE4.1'), ('pmaxud', 0x3f, 'SSE4.1'), ('pmulld', 0x40, 'SSE4.1')):
    ROWS += sse_vex(_n, '66 0f 38 %02x /r' % _op, 'VEX.NDS.L.66.0F38.WIG %02x /r' % _op, _f)
# ---- 66 0f 38 xx: one source (no vvvv)
for _n, _op, _f, _f256 in (('pabsb', 0x1c, 'SSSE3', 'AVX2'), ('pabsw', 0x1d, 'SSSE3', 'AVX2'),
                           ('pabsd', 0x1e, 'SSSE3', 'AVX2'), ('ptest', 0x17, 'SSE4.1', 'AVX')):
    ROWS += sse_vex(_n, '66 0f 38 %02x /r' % _op, 'VEX.L.66.0F38.WIG %02x /r' % _op, _f, _f256)
for _k, _op in (('bw', 0), ('bd', 1), ('bq', 2), ('wd', 3), ('wq', 4), ('dq', 5)):
    for _s, _base in (('sx', 0x20), ('zx', 0x30)):
        ROWS += sse_vex('pmov%s%s' % (_s, _k), '66 0f 38 %02x /r' % (_base + _op),
                        'VEX.L.66.0F38.WIG %02x /r' % (_base + _op), 'SSE4.1')
# ---- 66 0f 3a xx ib: two sources and an immediate
for _n, _op, _f, _f256 in (('palignr', 0x0f, 'SSSE3', 'AVX2'), ('blendps', 0x0c, 'SSE4.1', 'AVX'),
                           ('blendpd', 0x0d, 'SSE4.1', 'AVX'), ('pblendw', 0x0e, 'SSE4.1', 'AVX2')):
    ROWS += sse_vex(_n, '66 0f 3a %02x /r ib' % _op, 'VEX.NDS.L.66.0F3A.WIG %02x /r ib' % _op, _f, _f256)
# ---- blends by a mask register: xmm0 implied (legacy), the register in imm8[7:4] (VEX /is4)
for _n, _op, _vop, _f256 in (('pblendvb', 0x10, 0x4c, 'AVX2'), ('blendvps', 0x14, 0x4a, 'AVX'),
                             ('blendvpd', 0x15, 0x4b, 'AVX')):
    ROWS += sse_vex(_n, '66 0f 38 %02x /r' % _op, 'VEX.NDS.L.66.0F3A.W0 %02x /r ib' % _vop, 'SSE4.1', _f256)
# ---- element inserts and extracts (SSE4.1; VEX.128)
ROWS += [
    Row('pinsrb', M['pinsrb'], '66 0f 3a 20 /r ib', feature='SSE4.1'),
    Row('pinsrd', M['pinsrd'], '66 W0 0f 3a 22 /r ib', feature='SSE4.1'),
    Row('pinsrq', M['pinsrq'], '66 REX.W 0f 3a 22 /r ib', feature='SSE4.1'),
    Row('pextrb', M['pextrb'], '66 0f 3a 14 /r ib', feature='SSE4.1'),
    Row('pextrd', M['pextrd'], '66 W0 0f 3a 16 /r ib', feature='SSE4.1'),
    Row('pextrq', M['pextrq'], '66 REX.W 0f 3a 16 /r ib', feature='SSE4.1'),
    Row('extractps', M['extractps'], '66 0f 3a 17 /r ib', feature='SSE4.1'),
    Row('vpinsrb', M['vpinsrb'], v128('VEX.NDS.128.66.0F3A.W0 20 /r ib')),
    Row('vpinsrd', M['vpinsrd'], v128('VEX.NDS.128.66.0F3A.W0 22 /r ib')),
    Row('vpinsrq', M['vpinsrq'], v128('VEX.NDS.128.66.0F3A.W1 22 /r ib')),
    Row('vpextrb', M['vpextrb'], v128('VEX.128.66.0F3A.W0 14 /r ib')),
    Row('vpextrd', M['vpextrd'], v128('VEX.128.66.0F3A.W0 16 /r ib')),
    Row('vpextrq', M['vpextrq'], v128('VEX.128.66.0F3A.W1 16 /r ib')),
    Row('vextractps', M['vextractps'], v128('VEX.128.66.0F3A.WIG 17 /r ib')),
    # ---- AVX2 (and AVX's float forms): broadcasts, 128-bit lanes, permutes, variable shifts, masked moves
    Row('vpblendd', M['vpblendd'], *both('VEX.NDS.L.66.0F3A.W0 02 /r ib')),
    Row('vpbroadcastb', M['vpbroadcastb'], *both('VEX.L.66.0F38.W0 78 /r', 'AVX2'), feature='AVX2'),
    Row('vpbroadcastw', M['vpbroadcastw'], *both('VEX.L.66.0F38.W0 79 /r', 'AVX2'), feature='AVX2'),
    Row('vpbroadcastd', M['vpbroadcastd'], *both('VEX.L.66.0F38.W0 58 /r', 'AVX2'), feature='AVX2'),
    Row('vpbroadcastq', M['vpbroadcastq'], *both('VEX.L.66.0F38.W0 59 /r', 'AVX2'), feature='AVX2'),
    Row('vbroadcastss', M['vbroadcastss'], E('VEX.128.66.0F38.W0 18 /r:mem', 'AVX'),
        E('VEX.256.66.0F38.W0 18 /r:mem', 'AVX'), E('VEX.128.66.0F38.W0 18 /r:reg', 'AVX2'),
        E('VEX.256.66.0F38.W0 18 /r:reg', 'AVX2')),
    Row('vbroadcastsd', M['vbroadcastsd'], E('VEX.256.66.0F38.W0 19 /r:mem', 'AVX'),
        E('VEX.256.66.0F38.W0 19 /r:reg', 'AVX2')),
    Row('vbroadcastf128', M['vbroadcastf128'], E('VEX.256.66.0F38.W0 1a /r:mem', 'AVX')),
    Row('vinsertf128', M['vinsertf128'], E('VEX.NDS.256.66.0F3A.W0 18 /r ib', 'AVX')),
    Row('vinserti128', M['vinserti128'], E('VEX.NDS.256.66.0F3A.W0 38 /r ib', 'AVX2')),
    Row('vextractf128', M['vextractf128'], E('VEX.256.66.0F3A.W0 19 /r ib', 'AVX')),
    Row('vextracti128', M['vextracti128'], E('VEX.256.66.0F3A.W0 39 /r ib', 'AVX2')),
    Row('vperm2f128', M['vperm2f128'], E('VEX.NDS.256.66.0F3A.W0 06 /r ib', 'AVX')),
    Row('vperm2i128', M['vperm2i128'], E('VEX.NDS.256.66.0F3A.W0 46 /r ib', 'AVX2')),
    Row('vpermq', M['vpermq'], E('VEX.256.66.0F3A.W1 00 /r ib', 'AVX2')),
    Row('vpermpd', M['vpermpd'], E('VEX.256.66.0F3A.W1 01 /r ib', 'AVX2')),
    Row('vpermd', M['vpermd'], E('VEX.NDS.256.66.0F38.W0 36 /r', 'AVX2')),
    Row('vpermps', M['vpermps'], E('VEX.NDS.256.66.0F38.W0 16 /r', 'AVX2')),
    Row('vpermilps', M['vpermilps'], *both('VEX.NDS.L.66.0F38.W0 0c /r', 'AVX') + both('VEX.L.66.0F3A.W0 04 /r ib', 'AVX')),
    Row('vpermilpd', M['vpermilpd'], *both('VEX.NDS.L.66.0F38.W0 0d /r', 'AVX') + both('VEX.L.66.0F3A.W0 05 /r ib', 'AVX')),
    Row('vpsllvd', M['vpsllvd'], *both('VEX.NDS.L.66.0F38.W0 47 /r', 'AVX2'), feature='AVX2'),
    Row('vpsllvq', M['vpsllvq'], *both('VEX.NDS.L.66.0F38.W1 47 /r', 'AVX2'), feature='AVX2'),
    Row('vpsrlvd', M['vpsrlvd'], *both('VEX.NDS.L.66.0F38.W0 45 /r', 'AVX2'), feature='AVX2'),
    Row('vpsrlvq', M['vpsrlvq'], *both('VEX.NDS.L.66.0F38.W1 45 /r', 'AVX2'), feature='AVX2'),
    Row('vpsravd', M['vpsravd'], *both('VEX.NDS.L.66.0F38.W0 46 /r', 'AVX2'), feature='AVX2'),
    Row('vmaskmovps', M['vmaskmovps'], *both('VEX.NDS.L.66.0F38.W0 2c /r:mem', 'AVX') +
        both('VEX.NDS.L.66.0F38.W0 2e /r:mem', 'AVX')),
    Row('vmaskmovpd', M['vmaskmovpd'], *both('VEX.NDS.L.66.0F38.W0 2d /r:mem', 'AVX') +
        both('VEX.NDS.L.66.0F38.W0 2f /r:mem', 'AVX')),
    Row('vpmaskmovd', M['vpmaskmovd'], *both('VEX.NDS.L.66.0F38.W0 8c /r:mem', 'AVX2') +
        both('VEX.NDS.L.66.0F38.W0 8e /r:mem', 'AVX2'), feature='AVX2'),
    Row('vpmaskmovq', M['vpmaskmovq'], *both('VEX.NDS.L.66.0F38.W1 8c /r:mem', 'AVX2') +
        both('VEX.NDS.L.66.0F38.W1 8e /r:mem', 'AVX2'), feature='AVX2'),
    # ---- F16C, SSE4.2
    Row('vcvtph2ps', M['vcvtph2ps'], E('VEX.128.66.0F38.W0 13 /r', 'F16C'), E('VEX.256.66.0F38.W0 13 /r', 'F16C')),
    Row('vcvtps2ph', M['vcvtps2ph'], E('VEX.128.66.0F3A.W0 1d /r ib', 'F16C'),
        E('VEX.256.66.0F3A.W0 1d /r ib', 'F16C')),
    Row('crc32', M['crc32'], 'f2 0f 38 f0 /r', 'f2 0f 38 f1 /r', allow=INT, feature='SSE4.2'),
    # ---- BMI1, BMI2 (VEX.LZ: VEX.L = 1 is #UD)
    vex_lz('andn', 'BMI1', 'VEX.NDS.LZ.0F38.W f2 /r'),
    vex_lz('bextr', 'BMI1', 'VEX.NDS.LZ.0F38.W f7 /r'),
    vex_lz('blsr', 'BMI1', 'VEX.NDD.LZ.0F38.W f3 /1'),
    vex_lz('blsmsk', 'BMI1', 'VEX.NDD.LZ.0F38.W f3 /2'),
    vex_lz('blsi', 'BMI1', 'VEX.NDD.LZ.0F38.W f3 /3'),
    vex_lz('bzhi', 'BMI2', 'VEX.NDS.LZ.0F38.W f5 /r'),
    vex_lz('pdep', 'BMI2', 'VEX.NDS.LZ.F2.0F38.W f5 /r'),
    vex_lz('pext', 'BMI2', 'VEX.NDS.LZ.F3.0F38.W f5 /r'),
    vex_lz('shlx', 'BMI2', 'VEX.NDS.LZ.66.0F38.W f7 /r'),
    vex_lz('sarx', 'BMI2', 'VEX.NDS.LZ.F3.0F38.W f7 /r'),
    vex_lz('shrx', 'BMI2', 'VEX.NDS.LZ.F2.0F38.W f7 /r'),
    vex_lz('mulx', 'BMI2', 'VEX.NDD.LZ.F2.0F38.W f6 /r'),
    vex_lz('rorx', 'BMI2', 'VEX.LZ.F2.0F3A.W f0 /r ib'),
]
