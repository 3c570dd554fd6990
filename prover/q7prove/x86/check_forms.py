# SPDX-License-Identifier: BSD-3-Clause
"""The forms x86/check.py runs for the models of x86/bitmanip.py,
x86/vector.py and x86/avx512.py: each instruction at each width and
operand kind it is modelled for, with the CPU features it needs (a form
this CPU cannot run is listed, not run). forms(Form, m) -> [Form]; m(w,
disp) is check.py's memory operand of w bits at [rsi + disp].
"""


# QEMU 5 (unicorn 2.0.1) gets bextr's long fields, blsi's CF, bzhi and pdep/pext
# wrong: those run on the CPU alone
def bitmanip(add, m):
    for w, r in ((32, ('eax', 'ecx', 'edx', 'r9d')), (64, ('rax', 'rcx', 'rdx', 'r9'))):
        a, b, c, d = r
        add('andn %s, %s, %s' % (a, b, c), needs=['bmi1'])
        add('andn %s, %s, %s' % (d, b, m(w)), needs=['bmi1'])
        add('bextr %s, %s, %s' % (a, b, c), needs=['bmi1'], pool={'rcx': 'bextr'}, unicorn=False)
        add('bextr %s, %s, %s' % (a, m(w), c), needs=['bmi1'], pool={'rcx': 'bextr'}, unicorn=False)
        for op in ('blsi', 'blsmsk', 'blsr'):
            add('%s %s, %s' % (op, a, c), needs=['bmi1'], unicorn=op != 'blsi')
            add('%s %s, %s' % (op, d, m(w)), needs=['bmi1'], unicorn=op != 'blsi')
        add('bzhi %s, %s, %s' % (a, b, c), needs=['bmi2'], pool={'rcx': 'count'}, unicorn=False)
        add('bzhi %s, %s, %s' % (d, m(w), c), needs=['bmi2'], pool={'rcx': 'count'}, unicorn=False)
        for op in ('pdep', 'pext'):
            add('%s %s, %s, %s' % (op, a, b, c), needs=['bmi2'], unicorn=False)
            add('%s %s, %s, %s' % (op, d, b, m(w)), needs=['bmi2'], unicorn=False)
        for n in (0, 1, 13, w - 1):
            add('rorx %s, %s, %d' % (a, b, n), needs=['bmi2'])
        add('rorx %s, %s, 7' % (d, m(w)), needs=['bmi2'])
        for op in ('sarx', 'shlx', 'shrx'):
            add('%s %s, %s, %s' % (op, a, b, c), needs=['bmi2'], pool={'rcx': 'count'})
            add('%s %s, %s, %s' % (op, d, m(w), c), needs=['bmi2'], pool={'rcx': 'count'})
        add('mulx %s, %s, %s' % (a, b, c), needs=['bmi2'])
        add('mulx %s, %s, %s' % (d, b, m(w)), needs=['bmi2'])
        add('mulx %s, %s, %s' % (a, a, c), needs=['bmi2'])


def forms(Form, m):
    out = []

    def add(*a, **k):
        out.append(Form(*a, **k))
    bitmanip(add, m)
    simd(add, m)
    avx512(add, m)
    return out


def simd(add, m):
    """SSE4.1/4.2, SSSE3, AVX, AVX2 and F16C: legacy xmm, VEX xmm and ymm."""
    def three(op, needs_legacy, imm=None, legacy=True, pool=None):
        tail = '' if imm is None else ', %s' % imm
        if legacy:
            add('%s xmm0, xmm1%s' % (op, tail), needs=[needs_legacy], pool=pool)
            add('%s xmm2, %s%s' % (op, m(128, 16), tail), needs=[needs_legacy], pool=pool)
        add('v%s xmm3, xmm4, xmm5%s' % (op, tail), unicorn=False, needs=['avx'], pool=pool)
        add('v%s ymm3, ymm4, ymm5%s' % (op, tail), unicorn=False, needs=['avx2'], pool=pool)
        add('v%s ymm6, ymm7, %s%s' % (op, m(256, 0), tail), unicorn=False, needs=['avx2'], pool=pool)
    for op in ('pminsb', 'pminsd', 'pminuw', 'pminud', 'pmaxsb', 'pmaxsd', 'pmaxuw', 'pmaxud', 'pmulld', 'pmuldq',
               'packusdw'):
        three(op, 'sse4_1')
    for op in ('pminub', 'pminsw', 'pmaxub', 'pmaxsw', 'pavgb', 'pavgw', 'pmullw', 'pmuludq', 'packsswb',
               'packuswb', 'packssdw', 'paddsb', 'paddsw', 'paddusb', 'paddusw', 'psubsb', 'psubsw', 'psubusb',
               'psubusw'):
        three(op, 'sse2')
    three('pshufb', 'ssse3')
    for n in (0, 5, 15, 16, 20, 32):
        add('palignr xmm0, xmm1, %d' % n, needs=['ssse3'])
    add('vpalignr ymm3, ymm4, ymm5, 9', unicorn=False, needs=['avx2'])
    add('vpalignr xmm3, xmm4, %s, 18' % m(128, 16), unicorn=False, needs=['avx'])
    for op in ('pabsb', 'pabsw', 'pabsd'):
        add('%s xmm0, xmm1' % op, needs=['ssse3'])
        add('%s xmm2, %s' % (op, m(128, 16)), needs=['ssse3'])
        add('v%s ymm3, ymm4' % op, unicorn=False, needs=['avx2'])
    add('ptest xmm0, xmm1', needs=['sse4_1'])
    add('ptest xmm2, %s' % m(128, 16), needs=['sse4_1'])
    add('vptest ymm3, ymm4', unicorn=False, needs=['avx'])
    for k, n in (('bw', 8), ('bd', 4), ('bq', 2), ('wd', 4), ('wq', 2), ('dq', 2)):
        fw = {'b': 8, 'w': 16, 'd': 32}[k[0]]
        for s in ('zx', 'sx'):
            add('pmov%s%s xmm0, xmm1' % (s, k), needs=['sse4_1'])
            add('pmov%s%s xmm2, %s' % (s, k, m(n * fw, 8)), needs=['sse4_1'])
            add('vpmov%s%s ymm3, xmm4' % (s, k), unicorn=False, needs=['avx2'])
            add('vpmov%s%s ymm3, %s' % (s, k, m(2 * n * fw, 8)), unicorn=False, needs=['avx2'])
    for op, imm in (('pblendw', '0xa5'), ('blendps', '0x9'), ('blendpd', '0x2')):
        three(op, 'sse4_1', imm)
    add('vpblendd ymm3, ymm4, ymm5, 0x96', unicorn=False, needs=['avx2'])
    add('vpblendd xmm3, xmm4, %s, 0x5' % m(128, 16), unicorn=False, needs=['avx2'])
    for op in ('pblendvb', 'blendvps', 'blendvpd'):
        add('%s xmm1, xmm2' % op, needs=['sse4_1'])
        add('%s xmm1, %s' % (op, m(128, 16)), needs=['sse4_1'])
        add('v%s ymm1, ymm2, ymm3, ymm4' % op, unicorn=False, needs=['avx'])
        add('v%s xmm1, xmm2, %s, xmm4' % (op, m(128, 16)), unicorn=False, needs=['avx'])
    for op, r, lw, imms in (('pinsrb', 'ecx', 8, (5, 17)), ('pinsrd', 'ecx', 32, (2, 7)),
                            ('pinsrq', 'rcx', 64, (1, 2))):
        for n in imms:
            add('%s xmm1, %s, %d' % (op, r, n), needs=['sse4_1'])
        add('%s xmm1, %s, 1' % (op, m(lw)), needs=['sse4_1'])
        add('v%s xmm1, xmm2, %s, 1' % (op, r), unicorn=False, needs=['avx'])
        add('v%s xmm1, xmm2, %s, 0' % (op, m(lw)), unicorn=False, needs=['avx'])
    for op, r, lw in (('pextrb', 'eax', 8), ('pextrd', 'eax', 32), ('pextrq', 'rax', 64), ('extractps', 'eax', 32)):
        for n in (1, 3, 6):
            add('%s %s, xmm1, %d' % (op, r, n), needs=['sse4_1'])
        add('%s %s, xmm1, 2' % (op, m(lw)), needs=['sse4_1'])
        add('v%s %s, xmm2, 1' % (op, r), unicorn=False, needs=['avx'])
    add('pextrb rax, xmm1, 9', needs=['sse4_1'])
    for op, lw in (('vpbroadcastb', 8), ('vpbroadcastw', 16), ('vpbroadcastd', 32), ('vpbroadcastq', 64)):
        add('%s xmm1, xmm2' % op, unicorn=False, needs=['avx2'])
        add('%s ymm1, xmm2' % op, unicorn=False, needs=['avx2'])
        add('%s ymm3, %s' % (op, m(lw)), unicorn=False, needs=['avx2'])
    add('vbroadcastss ymm1, xmm2', unicorn=False, needs=['avx2'])
    add('vbroadcastss xmm1, %s' % m(32), unicorn=False, needs=['avx'])
    add('vbroadcastsd ymm1, xmm2', unicorn=False, needs=['avx2'])
    add('vbroadcasti128 ymm1, %s' % m(128, 16), unicorn=False, needs=['avx2'])
    add('vbroadcastf128 ymm1, %s' % m(128, 16), unicorn=False, needs=['avx'])
    for op, f in (('vinserti128', 'avx2'), ('vinsertf128', 'avx')):
        add('%s ymm1, ymm2, xmm3, 1' % op, unicorn=False, needs=[f])
        add('%s ymm1, ymm2, %s, 0' % (op, m(128, 16)), unicorn=False, needs=[f])
    for op, f in (('vextracti128', 'avx2'), ('vextractf128', 'avx')):
        add('%s xmm1, ymm2, 1' % op, unicorn=False, needs=[f])
        add('%s %s, ymm2, 0' % (op, m(128, 16)), unicorn=False, needs=[f])
    for imm in ('0x31', '0x28', '0x83', '0x02'):
        add('vperm2i128 ymm1, ymm2, ymm3, %s' % imm, unicorn=False, needs=['avx2'])
        add('vperm2f128 ymm1, ymm2, %s, %s' % (m(256, 0), imm), unicorn=False, needs=['avx'])
    for op in ('vpermq', 'vpermpd'):
        add('%s ymm1, ymm2, 0x1b' % op, unicorn=False, needs=['avx2'])
        add('%s ymm1, %s, 0xd2' % (op, m(256, 0)), unicorn=False, needs=['avx2'])
    for op in ('vpermd', 'vpermps'):
        add('%s ymm1, ymm2, ymm3' % op, unicorn=False, needs=['avx2'])
        add('%s ymm1, ymm2, %s' % (op, m(256, 0)), unicorn=False, needs=['avx2'])
    for op in ('vpermilps', 'vpermilpd'):
        add('%s xmm1, xmm2, 0x93' % op, unicorn=False, needs=['avx'])
        add('%s ymm1, %s, 0x6c' % (op, m(256, 0)), unicorn=False, needs=['avx'])
        add('%s ymm1, ymm2, ymm3' % op, unicorn=False, needs=['avx'])
        add('%s xmm1, xmm2, %s' % (op, m(128, 16)), unicorn=False, needs=['avx'])
    for op in ('vpsllvd', 'vpsllvq', 'vpsrlvd', 'vpsrlvq', 'vpsravd'):
        add('%s xmm1, xmm2, xmm3' % op, unicorn=False, needs=['avx2'], pool={'xmm3': 'counts'})
        add('%s ymm1, ymm2, ymm3' % op, unicorn=False, needs=['avx2'], pool={'xmm3': 'counts'})
        add('%s ymm1, ymm2, %s' % (op, m(256, 0)), unicorn=False, needs=['avx2'], pool={'mem': 'counts'})
    for op, f in (('vpmaskmovd', 'avx2'), ('vpmaskmovq', 'avx2'), ('vmaskmovps', 'avx'), ('vmaskmovpd', 'avx')):
        add('%s xmm1, xmm2, %s' % (op, m(128, 16)), unicorn=False, needs=[f])
        add('%s ymm1, ymm2, %s' % (op, m(256, 0)), unicorn=False, needs=[f])
        add('%s %s, xmm2, xmm3' % (op, m(128, 32)), unicorn=False, needs=[f])
        add('%s %s, ymm2, ymm3' % (op, m(256, 0)), unicorn=False, needs=[f])
    for d, s in (('eax', 'cl'), ('eax', 'cx'), ('eax', 'ecx'), ('rax', 'rcx'), ('rax', 'cl'), ('r9d', m(8)),
                 ('r9d', m(32)), ('r9', m(64))):
        add('crc32 %s, %s' % (d, s), needs=['sse4_2'])
    add('vcvtph2ps xmm1, xmm2', unicorn=False, needs=['f16c'], pool={'xmm': 'fp16'})
    add('vcvtph2ps ymm1, xmm2', unicorn=False, needs=['f16c'], pool={'xmm': 'fp16'})
    add('vcvtph2ps ymm1, %s' % m(128, 16), unicorn=False, needs=['f16c'], pool={'mem': 'fp16'})
    add('vcvtph2ps xmm1, %s' % m(64), unicorn=False, needs=['f16c'], pool={'mem': 'fp16'})
    for imm in range(5):
        add('vcvtps2ph xmm1, ymm2, %d' % imm, unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
        add('vcvtps2ph xmm1, xmm2, %d' % imm, unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
    add('vcvtps2ph %s, ymm2, 0' % m(128, 16), unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
    add('vcvtps2ph %s, xmm2, 3' % m(64), unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})


AVX512 = ['avx512f', 'avx512bw', 'avx512vl', 'avx512dq']
VBMI = AVX512 + ['avx512vbmi']
PTRW = {8: 'byte', 16: 'word', 32: 'dword', 64: 'qword', 128: 'xmmword', 256: 'ymmword', 512: 'zmmword'}


def mem(bits, disp=0):
    return '%s ptr [rsi + %d]' % (PTRW[bits], disp) if disp >= 0 else '%s ptr [rsi - %d]' % (PTRW[bits], -disp)


def edge(bits, ew):
    """A memory operand of `bits` bits whose upper half lies past the data
    (check.py's data ends at rsi + 192, where a page nobody may touch
    begins), and the mask pool that keeps its elements inside: a masked-off
    element there must neither be read nor fault."""
    half = bits // 16
    return mem(bits, 192 - half), 'low%d' % (8 * half // ew)


def avx512(add, m):
    def f(text, needs=AVX512, pool=None):
        add(text, unicorn=False, needs=needs, pool=pool)

    def rvw(op, ew, bcast=False, imm=None, needs=AVX512, suppress=True, pool=None, lite=False):
        """op d, vvvv, r/m at each length, masked, zeroed, from memory, broadcast,
        at the guard page; lite: two forms (another immediate of an op done in full)."""
        t = '' if imm is None else ', %s' % imm
        if lite:
            f('%s zmm17 {k1}, zmm18, zmm19%s' % (op, t), needs, pool)
            f('%s ymm6 {k4}{z}, ymm7, %s%s' % (op, mem(256, 32), t), needs, pool)
            return
        f('%s zmm1, zmm2, zmm3%s' % (op, t), needs, pool)
        f('%s zmm17 {k1}, zmm18, zmm19%s' % (op, t), needs, pool)
        f('%s ymm20 {k2}{z}, ymm21, ymm22%s' % (op, t), needs, pool)
        f('%s xmm1 {k3}, xmm2, xmm3%s' % (op, t), needs, pool)
        f('%s zmm4, zmm5, %s%s' % (op, mem(512, 0), t), needs, pool)
        f('%s ymm6 {k4}, ymm7, %s%s' % (op, mem(256, 32), t), needs, pool)
        f('%s xmm8 {k5}{z}, xmm9, %s%s' % (op, mem(128, -48), t), needs, pool)
        if bcast:
            f('%s zmm8 {k5}, zmm9, %s{1to%d}%s' % (op, mem(ew, 8), 512 // ew, t), needs, pool)
            f('%s xmm10, xmm11, %s{1to%d}%s' % (op, mem(ew, 64), 128 // ew, t), needs, pool)
        if suppress:
            at, low = edge(512, ew)
            f('%s zmm10 {k6}, zmm11, %s%s' % (op, at, t), needs, dict(pool or {}, k6=low))

    def kvw(op, ew, bcast=False, imm=None, needs=AVX512, lite=False):
        t = '' if imm is None else ', %s' % imm
        if lite:
            f('%s k2 {k3}, ymm17, ymm18%s' % (op, t), needs)
            f('%s k4, xmm6, %s%s' % (op, mem(128, 64), t), needs)
            return
        f('%s k1, zmm2, zmm3%s' % (op, t), needs)
        f('%s k2 {k3}, ymm17, ymm18%s' % (op, t), needs)
        f('%s k7, xmm1, xmm2%s' % (op, t), needs)
        f('%s k4 {k5}, zmm6, %s%s' % (op, mem(512, 64), t), needs)
        if bcast:
            f('%s k6, zmm9, %s{1to%d}%s' % (op, mem(ew, 8), 512 // ew, t), needs)
        at, low = edge(512, ew)
        f('%s k5 {k6}, zmm11, %s%s' % (op, at, t), needs, {'k6': low})

    def rw(op, ew, src=None, bcast=False, imm=None, needs=AVX512, suppress=True, pool=None):
        """op d, s: s is src(vl) bits wide (a narrower source for the extensions)."""
        t = '' if imm is None else ', %s' % imm
        for vl, d in ((512, 'zmm'), (256, 'ymm'), (128, 'xmm')):
            sb = src(vl) if src else vl
            sr = {512: 'zmm', 256: 'ymm'}.get(sb, 'xmm')
            f('%s %s1, %s2%s' % (op, d, sr, t), needs, pool)
            f('%s %s17 {k1}, %s18%s' % (op, d, sr, t), needs, pool)
            f('%s %s3 {k2}{z}, %s%s' % (op, d, mem(sb, 64 if sb >= 64 else 8), t), needs, pool)
        if bcast:
            f('%s zmm4 {k3}, %s{1to%d}%s' % (op, mem(ew, 8), 512 // ew, t), needs, pool)
        if suppress:
            sb = src(512) if src else 512
            at, low = edge(sb, 512 * ew // sb // (512 // sb) if src else ew)
            f('%s zmm5 {k6}, %s%s' % (op, at, t), needs, dict(pool or {}, k6=low))

    # moves
    for op, ew, aligned in (('vmovdqa32', 32, True), ('vmovdqa64', 64, True), ('vmovdqu8', 8, False),
                            ('vmovdqu16', 16, False), ('vmovdqu32', 32, False), ('vmovdqu64', 64, False),
                            ('vmovaps', 32, True), ('vmovapd', 64, True), ('vmovups', 32, False),
                            ('vmovupd', 64, False)):
        rw(op, ew, suppress=not aligned)
        f('%s %s, zmm19' % (op, mem(512, 64)))
        f('%s %s {k1}, ymm20' % (op, mem(256, 32)))
        f('%s %s {k2}, xmm3' % (op, mem(128, -64)))
        f('%s zmm1 {k3}, zmm2' % op)
        if not aligned:
            at, low = edge(512, ew)
            f('%s %s {k4}, zmm5' % (op, at), pool={'k4': low})
    f('vmovntdq %s, zmm17' % mem(512, 64))
    f('vmovntdq %s, ymm18' % mem(256, 32))
    f('vmovntdq %s, xmm19' % mem(128, -48))
    f('vmovd xmm17, ecx')
    f('vmovd ecx, xmm17')
    f('vmovq xmm18, rcx')
    f('vmovq rcx, xmm18')
    f('vmovq xmm19, %s' % mem(64, 8))
    f('vmovq %s, xmm20' % mem(64, 16))
    f('vmovq xmm21, xmm22')
    f('vmovd %s, xmm23' % mem(32, 4))
    # element-wise
    for op in ('vpandd', 'vpandnd', 'vpord', 'vpxord', 'vpaddd', 'vpsubd', 'vpminsd', 'vpminud', 'vpmaxsd',
               'vpmaxud', 'vpmulld', 'vandps', 'vandnps', 'vorps', 'vxorps', 'vpsllvd', 'vpsrlvd', 'vpsravd'):
        rvw(op, 32, bcast=True, pool={'xmm': 'counts', 'mem': 'counts'} if 'v' in op[4:] else None)
    for op in ('vpandq', 'vpandnq', 'vporq', 'vpxorq', 'vpaddq', 'vpsubq', 'vpminsq', 'vpminuq', 'vpmaxsq',
               'vpmaxuq', 'vpmullq', 'vpmuludq', 'vandpd', 'vandnpd', 'vorpd', 'vxorpd', 'vpsllvq', 'vpsrlvq',
               'vpsravq'):
        rvw(op, 64, bcast=True, pool={'xmm': 'counts', 'mem': 'counts'} if 'v' in op[4:] else None)
    for op in ('vpaddb', 'vpsubb', 'vpminsb', 'vpminub', 'vpmaxsb', 'vpmaxub', 'vpavgb', 'vpaddsb', 'vpaddusb',
               'vpsubsb', 'vpsubusb'):
        rvw(op, 8)
    for op in ('vpaddw', 'vpsubw', 'vpminsw', 'vpminuw', 'vpmaxsw', 'vpmaxuw', 'vpavgw', 'vpmullw', 'vpsllvw',
               'vpsrlvw', 'vpsravw', 'vpaddsw', 'vpaddusw', 'vpsubsw', 'vpsubusw'):
        rvw(op, 16, pool={'xmm': 'counts', 'mem': 'counts'} if 'v' in op[4:] else None)
    for op, ew in (('vpabsb', 8), ('vpabsw', 16), ('vpabsd', 32), ('vpabsq', 64)):
        rw(op, ew, bcast=ew >= 32)
    for imm in ('0xca', '0x96', '0x01', '0xfe', '0x5a'):
        rvw('vpternlogd', 32, bcast=True, imm=imm, lite=imm != '0xca')
        rvw('vpternlogq', 64, bcast=True, imm=imm, lite=imm != '0x96')
    # compares into opmasks
    for op, ew in (('vpcmpeqb', 8), ('vpcmpeqw', 16), ('vpcmpgtb', 8), ('vpcmpgtw', 16), ('vptestmb', 8),
                   ('vptestmw', 16), ('vptestnmb', 8), ('vptestnmw', 16)):
        kvw(op, ew)
    for op, ew in (('vpcmpeqd', 32), ('vpcmpeqq', 64), ('vpcmpgtd', 32), ('vpcmpgtq', 64), ('vptestmd', 32),
                   ('vptestmq', 64), ('vptestnmd', 32), ('vptestnmq', 64)):
        kvw(op, ew, bcast=True)
    for p in range(8):
        for op, ew in (('vpcmpb', 8), ('vpcmpub', 8), ('vpcmpw', 16), ('vpcmpuw', 16)):
            kvw(op, ew, imm=p, lite=p != 1)
        for op, ew in (('vpcmpd', 32), ('vpcmpud', 32), ('vpcmpq', 64), ('vpcmpuq', 64)):
            kvw(op, ew, bcast=True, imm=p, lite=p != 2)
    for op in ('vpmovm2b', 'vpmovm2w', 'vpmovm2d', 'vpmovm2q'):
        for d in ('zmm1', 'ymm17', 'xmm2'):
            f('%s %s, k3' % (op, d))
    for op in ('vpmovb2m', 'vpmovw2m', 'vpmovd2m', 'vpmovq2m'):
        for s in ('zmm1', 'ymm17', 'xmm2'):
            f('%s k3, %s' % (op, s))
    # blends, shuffles, permutes
    for op, ew in (('vpblendmb', 8), ('vpblendmw', 16)):
        rvw(op, ew)
    for op, ew in (('vpblendmd', 32), ('vpblendmq', 64), ('vblendmps', 32), ('vblendmpd', 64)):
        rvw(op, ew, bcast=True)
    rvw('vpshufb', 8, suppress=False)
    for op, ew, imm in (('vpshufd', 32, '0x1b'), ('vpshufhw', 16, '0x4e'), ('vpshuflw', 16, '0xd8')):
        rw(op, ew, bcast=op == 'vpshufd', imm=imm, suppress=False)
    for op, ew in (('vpermd', 32), ('vpermq', 64), ('vpermw', 16)):
        f('%s zmm1 {k1}, zmm2, zmm3' % op)
        f('%s ymm17 {k2}{z}, ymm18, %s' % (op, mem(256, 32)))
        if ew >= 32:
            f('%s zmm4, zmm5, %s{1to%d}' % (op, mem(ew, 8), 512 // ew))
    f('vpermw xmm1, xmm2, xmm3')
    for s in ('zmm1 {k1}, zmm2, zmm3', 'ymm4, ymm5, %s' % mem(256, 0), 'xmm6 {k2}{z}, xmm7, xmm8'):
        f('vpermb %s' % s, VBMI)
        f('vpermi2b %s' % s, VBMI)
        f('vpermt2b %s' % s, VBMI)
    f('vpermq zmm1 {k1}, zmm2, 0x1b')
    f('vpermq ymm17, %s, 0xd2' % mem(256, 32))
    f('vpermq zmm3, %s{1to8}, 0x39' % mem(64, 8))
    rvw('vpermilps', 32, bcast=True, suppress=False)
    rw('vpermilps', 32, bcast=True, imm='0x93', suppress=False)
    for op, ew in (('vpermi2d', 32), ('vpermi2q', 64), ('vpermt2d', 32), ('vpermt2q', 64)):
        rvw(op, ew, bcast=True, suppress=False)
    for op, ew in (('vpermi2w', 16), ('vpermt2w', 16)):
        rvw(op, ew, suppress=False)
    for op, ew in (('vshufi32x4', 32), ('vshufi64x2', 64)):
        for imm in ('0x1b', '0xe4', '0x4e', '0x1'):
            f('%s zmm1 {k1}, zmm2, zmm3, %s' % (op, imm))
            f('%s ymm17, ymm18, %s, %s' % (op, mem(256, 32), imm))
        f('%s zmm4, zmm5, %s{1to%d}, 0x2' % (op, mem(ew, 8), 512 // ew))
    for op, ew in (('valignd', 32), ('valignq', 64)):
        for imm in (0, 1, 3, 7, 17):
            rvw(op, ew, bcast=True, imm=imm, suppress=False, lite=imm != 3)
    for imm in (0, 5, 16, 20, 33):
        rvw('vpalignr', 8, imm=imm, suppress=False, lite=imm != 5)
    for op, ew in (('vpunpcklbw', 8), ('vpunpckhbw', 8), ('vpunpcklwd', 16), ('vpunpckhwd', 16),
                   ('vpacksswb', 8), ('vpackuswb', 8)):
        rvw(op, ew, suppress=False)
    for op, ew in (('vpunpckldq', 32), ('vpunpckhdq', 32), ('vpunpcklqdq', 64), ('vpunpckhqdq', 64),
                   ('vunpcklps', 32), ('vunpckhps', 32), ('vunpcklpd', 64), ('vunpckhpd', 64)):
        rvw(op, ew, bcast=True, suppress=False)
    for op in ('vpackssdw', 'vpackusdw'):      # dwords broadcast, words masked
        rvw(op, 16, suppress=False)
        f('%s zmm8 {k5}, zmm9, %s{1to16}' % (op, mem(32, 8)))
    for imm in ('0x1b', '0xe4', '0x96'):
        rvw('vshufps', 32, bcast=True, imm=imm, suppress=False, lite=imm != '0x1b')
    for imm in ('0x5a', '0xa5', '0x01'):
        rvw('vshufpd', 64, bcast=True, imm=imm, suppress=False, lite=imm != '0x5a')
    # compress and expand
    for op, ew in (('vpcompressd', 32), ('vpcompressq', 64)):
        f('%s zmm1 {k1}, zmm2' % op)
        f('%s ymm17 {k2}{z}, ymm18' % op)
        f('%s xmm3, xmm4' % op)
        f('%s %s {k3}, zmm5' % (op, mem(512, 0)))
        f('%s %s {k4}, ymm6' % (op, mem(256, 96)))
        f('%s %s, xmm6' % (op, mem(128, -64)))
    for op, ew in (('vpexpandd', 32), ('vpexpandq', 64)):
        f('%s zmm1 {k1}, zmm2' % op)
        f('%s ymm17 {k2}{z}, ymm18' % op)
        f('%s zmm3 {k3}, %s' % (op, mem(512, 0)))
        f('%s xmm4 {k4}{z}, %s' % (op, mem(128, 176)), pool={'k4': 'low%d' % (128 // ew)})
        f('%s ymm5, %s' % (op, mem(256, 32)))
        # the elements read are as many as the mask has bits: from 184 on, the guard page past 8 of them
        f('%s zmm6 {k5}, %s' % (op, mem(512, 184)), pool={'k5': 'one%d' % (64 // ew)})
    # broadcasts
    for op, ew in (('vpbroadcastb', 8), ('vpbroadcastw', 16), ('vpbroadcastd', 32), ('vpbroadcastq', 64)):
        f('%s zmm1 {k1}, xmm2' % op)
        f('%s ymm17 {k2}{z}, %s' % (op, mem(ew, 8)))
        f('%s xmm3, %s' % (op, 'rcx' if ew == 64 else 'ecx'))
        f('%s zmm18 {k3}, %s' % (op, 'r9' if ew == 64 else 'r9d'))
    for op, s in (('vbroadcasti32x2', 64), ('vbroadcastss', 32), ('vbroadcastsd', 64)):
        f('%s zmm1 {k1}, xmm2' % op)
        f('%s ymm17, %s' % (op, mem(s, 8)))
    for op, s, vls in (('vbroadcasti32x4', 128, ('zmm', 'ymm')), ('vbroadcasti64x2', 128, ('zmm', 'ymm')),
                       ('vbroadcasti32x8', 256, ('zmm',)), ('vbroadcasti64x4', 256, ('zmm',))):
        for v in vls:
            f('%s %s1 {k1}, %s' % (op, v, mem(s, 16)))
            f('%s %s17, %s' % (op, v, mem(s, -32)))
    # inserts and extracts
    for op, bits in (('vinserti32x4', 128), ('vinserti64x2', 128), ('vinsertf32x4', 128), ('vinsertf64x2', 128),
                     ('vinserti32x8', 256), ('vinserti64x4', 256), ('vinsertf32x8', 256), ('vinsertf64x4', 256)):
        r = 'xmm' if bits == 128 else 'ymm'
        for imm in (0, 1, 2, 3):
            f('%s zmm1 {k1}, zmm2, %s3, %d' % (op, r, imm))
        f('%s zmm4, zmm5, %s, 1' % (op, mem(bits, 32)))
        if bits == 128:
            f('%s ymm17 {k2}{z}, ymm18, xmm19, 1' % op)
    for op, bits in (('vextracti32x4', 128), ('vextracti64x2', 128), ('vextractf32x4', 128), ('vextractf64x2', 128),
                     ('vextracti32x8', 256), ('vextracti64x4', 256), ('vextractf32x8', 256), ('vextractf64x4', 256)):
        r = 'xmm' if bits == 128 else 'ymm'
        for imm in (0, 1, 3):
            f('%s %s1 {k1}, zmm2, %d' % (op, r, imm))
        f('%s %s {k2}, zmm5, 1' % (op, mem(bits, 32)))
        f('%s %s3 {k3}{z}, zmm4, 0' % (op, r))
        if bits == 128:
            f('%s xmm17, ymm18, 1' % op)
    for op, lw, r in (('vpinsrb', 8, 'ecx'), ('vpinsrw', 16, 'ecx'), ('vpinsrd', 32, 'ecx'), ('vpinsrq', 64, 'rcx')):
        f('%s xmm17, xmm18, %s, 1' % (op, r))
        f('%s xmm1, xmm19, %s, 3' % (op, mem(lw, 8)))
    for op, lw, r in (('vpextrb', 8, 'eax'), ('vpextrw', 16, 'eax'), ('vpextrd', 32, 'eax'), ('vpextrq', 64, 'rax')):
        f('%s %s, xmm17, 1' % (op, r))
        f('%s %s, xmm18, 3' % (op, mem(lw, 8)))
    # widening and narrowing
    for k, fw in (('bw', 8), ('bd', 8), ('bq', 8), ('wd', 16), ('wq', 16), ('dq', 32)):
        tw = {'w': 16, 'd': 32, 'q': 64}[k[1]]
        for s in ('zx', 'sx'):
            rw('vpmov%s%s' % (s, k), tw, src=lambda vl, fw=fw, tw=tw: vl * fw // tw)
    for k, fw, tw in (('qb', 64, 8), ('qw', 64, 16), ('qd', 64, 32), ('db', 32, 8), ('dw', 32, 16), ('wb', 16, 8)):
        op = 'vpmov' + k
        for vl, r in ((512, 'zmm'), (256, 'ymm'), (128, 'xmm')):
            db = vl * tw // fw
            dr = 'ymm' if db == 256 else 'xmm'
            f('%s %s1, %s2' % (op, dr, r))
            f('%s %s17 {k1}, %s18' % (op, dr, r))
            f('%s %s3 {k2}{z}, %s4' % (op, dr, r))
            f('%s %s {k3}, %s5' % (op, mem(db, 8), r))
        db = 512 * tw // fw
        at, low = edge(db, tw)
        f('%s %s {k4}, zmm6' % (op, at), pool={'k4': low})
    # shifts and rotates
    for op, ew in (('vpsrlw', 16), ('vpsraw', 16), ('vpsllw', 16), ('vpsrld', 32), ('vpsrad', 32), ('vpslld', 32),
                   ('vpsrlq', 64), ('vpsraq', 64), ('vpsllq', 64), ('vprold', 32), ('vprolq', 64), ('vprord', 32),
                   ('vprorq', 64)):
        for imm in ((0, 1, 7, 15, 31, 33, 63, 64, 200) if op in ('vpsraq', 'vpsrlw', 'vprolq') else (1, 15, 33, 64)):
            f('%s zmm1 {k1}, zmm2, %d' % (op, imm))
        f('%s ymm17 {k2}{z}, %s, 5' % (op, mem(256, 32)))
        f('%s xmm3, xmm4, 9' % op)
        if ew >= 32:
            f('%s zmm5, %s{1to%d}, 3' % (op, mem(ew, 8), 512 // ew))
        if not op.startswith('vpro'):
            f('%s zmm6 {k3}, zmm7, xmm8' % op, pool={'xmm8': 'count'})
            f('%s ymm18, ymm19, %s' % (op, mem(128, 16)), pool={'mem': 'count'})
            f('%s xmm9 {k4}{z}, xmm10, xmm11' % op, pool={'xmm11': 'count'})
    for op in ('vpslldq', 'vpsrldq'):
        for imm in (0, 3, 15, 16):
            f('%s zmm1, zmm2, %d' % (op, imm))
        f('%s ymm17, %s, 5' % (op, mem(256, 32)))
        f('%s xmm3, xmm4, 9' % op)
    # the opmask instructions
    for s, needs in (('b', AVX512), ('w', AVX512), ('d', AVX512), ('q', AVX512)):
        for op in ('kand', 'kandn', 'kor', 'kxor', 'kxnor', 'kadd'):
            f('%s%s k1, k2, k3' % (op, s), needs)
        for op in ('knot', 'kortest', 'ktest'):
            f('%s%s k4, k5' % (op, s), needs)
        f('kmov%s k1, k2' % s, needs)
        f('kmov%s k3, %s' % (s, mem({'b': 8, 'w': 16, 'd': 32, 'q': 64}[s], 8)), needs)
        f('kmov%s %s, k4' % (s, mem({'b': 8, 'w': 16, 'd': 32, 'q': 64}[s], 16)), needs)
        f('kmov%s k5, %s' % (s, 'rcx' if s == 'q' else 'ecx'), needs)
        f('kmov%s %s, k6' % (s, 'rax' if s == 'q' else 'eax'), needs)
        for n in (0, 1, 7, 8, 15, 31, 63, 64, 200):
            f('kshiftl%s k1, k2, %d' % (s, n), needs)
            f('kshiftr%s k3, k4, %d' % (s, n), needs)
    for op in ('kunpckbw', 'kunpckwd', 'kunpckdq'):
        f('%s k1, k2, k3' % op)
    f('vbroadcasti128 ymm1, %s' % mem(128, 16), needs=['avx2'])
