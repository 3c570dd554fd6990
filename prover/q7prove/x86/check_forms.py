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
               'packuswb', 'packssdw'):
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
    for op, r, lw, imms in (('pinsrb', 'ecx', 8, (5, 17)), ('pinsrd', 'ecx', 32, (2, 7)), ('pinsrq', 'rcx', 64, (1, 2))):
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
    add('vcvtph2ps xmm1, xmm2', unicorn=False, needs=['f16c'], pool={'xmm': 'fp16'})
    add('vcvtph2ps ymm1, xmm2', unicorn=False, needs=['f16c'], pool={'xmm': 'fp16'})
    add('vcvtph2ps ymm1, %s' % m(128, 16), unicorn=False, needs=['f16c'], pool={'mem': 'fp16'})
    add('vcvtph2ps xmm1, %s' % m(64), unicorn=False, needs=['f16c'], pool={'mem': 'fp16'})
    for imm in range(5):
        add('vcvtps2ph xmm1, ymm2, %d' % imm, unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
        add('vcvtps2ph xmm1, xmm2, %d' % imm, unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
    add('vcvtps2ph %s, ymm2, 0' % m(128, 16), unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
    add('vcvtps2ph %s, xmm2, 3' % m(64), unicorn=False, needs=['f16c'], pool={'xmm': 'fp32'})
