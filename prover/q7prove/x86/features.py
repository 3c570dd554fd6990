# SPDX-License-Identifier: BSD-3-Clause
"""The CPU features an instruction needs beyond x86-64's baseline (SSE2),
named as Linux's /proc/cpuinfo names them: a proof of code that uses them
holds on the CPUs that have them (on the others the instruction raises
#UD). of(insn) -> a frozenset of names.
"""
from q7prove.x86.evex import VInsn

BMI1 = {'andn', 'bextr', 'blsi', 'blsmsk', 'blsr', 'tzcnt'}
BMI2 = {'bzhi', 'pdep', 'pext', 'rorx', 'sarx', 'shlx', 'shrx', 'mulx'}
SSSE3 = {'pabsb', 'pabsw', 'pabsd', 'pshufb', 'palignr'}
SSE4_1 = {'pminsb', 'pminsd', 'pminuw', 'pminud', 'pmaxsb', 'pmaxsd', 'pmaxuw', 'pmaxud', 'pmulld', 'pmuldq',
          'packusdw', 'ptest', 'pblendw', 'blendps', 'blendpd', 'pblendvb', 'blendvps', 'blendvpd', 'pinsrb',
          'pinsrd', 'pinsrq', 'pextrb', 'pextrd', 'pextrq', 'extractps', 'pcmpeqq'} | \
    {'pmov%sx%s' % (s, k) for s in 'zs' for k in ('bw', 'bd', 'bq', 'wd', 'wq', 'dq')}
SSE4_2 = {'pcmpgtq', 'crc32'}
AVX2_ONLY = {'vpbroadcastb', 'vpbroadcastw', 'vpbroadcastd', 'vpbroadcastq', 'vbroadcasti128', 'vinserti128',
             'vextracti128', 'vperm2i128', 'vpermq', 'vpermd', 'vpermps', 'vpermpd', 'vpblendd', 'vpsllvd',
             'vpsllvq', 'vpsrlvd', 'vpsrlvq', 'vpsravd', 'vpmaskmovd', 'vpmaskmovq'}
F16C = {'vcvtph2ps', 'vcvtps2ph'}
# AVX-512: what needs BW (bytes and words, 32- and 64-bit opmasks), DQ, VBMI beyond F
BW_K = {'kmovd', 'kmovq', 'kandd', 'kandq', 'kandnd', 'kandnq', 'kord', 'korq', 'kxord', 'kxorq', 'kxnord',
        'kxnorq', 'knotd', 'knotq', 'kortestd', 'kortestq', 'ktestd', 'ktestq', 'kaddd', 'kaddq', 'kshiftld',
        'kshiftlq', 'kshiftrd', 'kshiftrq', 'kunpckwd', 'kunpckdq'}
DQ_K = {'kmovb', 'kandb', 'kandnb', 'korb', 'kxorb', 'kxnorb', 'knotb', 'kortestb', 'ktestb', 'ktestw', 'kaddb',
        'kaddw', 'kshiftlb', 'kshiftrb'}
DQ = {'vpmullq', 'vpmovm2d', 'vpmovm2q', 'vpmovd2m', 'vpmovq2m', 'vinserti64x2', 'vinserti32x8', 'vinsertf64x2',
      'vinsertf32x8', 'vextracti64x2', 'vextracti32x8', 'vextractf64x2', 'vextractf32x8', 'vbroadcasti32x2',
      'vbroadcasti64x2', 'vbroadcasti32x8', 'vandps', 'vandpd', 'vandnps', 'vandnpd', 'vorps', 'vorpd', 'vxorps',
      'vxorpd'}
VBMI = {'vpermb', 'vpermi2b', 'vpermt2b'}


def of(insn):
    mn = insn.mnemonic
    if isinstance(insn, VInsn):
        if mn == 'vbroadcasti128':
            return frozenset({'avx2'})
        out = {'avx512f'}
        if mn.startswith('k'):
            out |= {'avx512bw'} if mn in BW_K else {'avx512dq'} if mn in DQ_K else set()
            return frozenset(out)
        if insn.ew in (8, 16) and mn not in ('vpmovqb', 'vpmovqw', 'vpmovdb', 'vpmovdw') or \
                mn in ('vpmovwb', 'vpmovm2b', 'vpmovm2w', 'vpmovb2m', 'vpmovw2m') or \
                mn in ('vpinsrb', 'vpinsrw', 'vpextrb', 'vpextrw', 'vpsrldq', 'vpslldq', 'vpalignr', 'vpshufb'):
            out.add('avx512bw')
        if mn in DQ or mn in ('vpinsrd', 'vpinsrq', 'vpextrd', 'vpextrq'):
            out.add('avx512dq')
        if mn in VBMI:
            out.add('avx512vbmi')
        if insn.vl < 512:
            out.add('avx512vl')
        return frozenset(out)
    if mn in BMI1:
        return frozenset({'bmi1'})
    if mn in BMI2:
        return frozenset({'bmi2'})
    if mn in ('lzcnt', 'popcnt'):
        return frozenset({'abm' if mn == 'lzcnt' else 'popcnt'})
    if mn in F16C:
        return frozenset({'f16c'})
    if mn.startswith('v') and mn not in ('verr', 'verw'):
        wide = any(o.kind == 'reg' and o.reg.startswith('ymm') for o in insn.ops)
        integer = mn.startswith('vp') or mn in ('vmovdqa', 'vmovdqu', 'vlddqu', 'vmovntdq')
        return frozenset({'avx2' if mn in AVX2_ONLY or (wide and integer and mn not in ('vptest',)) else 'avx'})
    if mn in SSSE3:
        return frozenset({'ssse3'})
    if mn in SSE4_1:
        return frozenset({'sse4_1'})
    if mn in SSE4_2:
        return frozenset({'sse4_2'})
    return frozenset()
