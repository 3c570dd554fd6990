# SPDX-License-Identifier: BSD-3-Clause
"""The forms x86/check.py runs for the base instruction set's models
(x86/integer.py, control.py, sse.py, scalar_fp.py): each instruction at
every width and operand kind its table row accepts, then the newer
models' forms of x86/check_forms.py. forms() -> [Form]; m(w, disp) is a
memory operand of w bits at [rsi + disp]."""
from q7prove.x86 import check_forms


R = {8: ['al', 'r9b', 'dh'], 16: ['ax', 'r9w'], 32: ['eax', 'r9d'], 64: ['rax', 'r9']}
S = {8: 'cl', 16: 'cx', 32: 'ecx', 64: 'rcx'}
PTR = {8: 'byte', 16: 'word', 32: 'dword', 64: 'qword', 128: 'xmmword', 256: 'ymmword', 512: 'zmmword'}
CONDS = ['o', 'no', 'b', 'ae', 'e', 'ne', 'be', 'a', 's', 'ns', 'p', 'np', 'l', 'ge', 'le', 'g']


def m(w, disp=8):
    return '%s ptr [rsi + %d]' % (PTR[w], disp)


class Form:
    """One instruction to check: its assembly text; native/unicorn: which
    machines run it; pool: how to choose some inputs; faults: it traps
    (only unicorn runs it, and both must fault); mnemonic: for text that
    is .byte; needs: the CPU features it needs (/proc/cpuinfo's names: on
    a CPU without one it is not run natively)."""

    def __init__(self, text, native=True, unicorn=True, pool=None, faults=False, mnemonic=None, needs=()):
        self.text, self.native, self.unicorn, self.pool, self.faults = text, native, unicorn, pool or {}, faults
        self.needs = tuple(needs)
        self.mnemonic = mnemonic or (text.split()[0] if not text.startswith('rep ') else text.split()[1])


def forms():
    out = []
    add = lambda *a, **k: out.append(Form(*a, **k))
    for w in (8, 16, 32, 64):
        imm = '0x7f' if w == 8 else '-0x80' if w == 16 else '0x12345678' if w == 32 else '-0x12345678'
        for op in ('add', 'adc', 'sub', 'sbb', 'cmp', 'and', 'or', 'xor', 'test'):
            for d in R[w]:
                add('%s %s, %s' % (op, d, S[w]))
            add('%s %s, %s' % (op, R[w][0], imm))
            add('%s %s, 1' % (op, R[w][1]))
            add('%s %s, %s' % (op, m(w), S[w]))
            if op != 'test':
                add('%s %s, %s' % (op, S[w], m(w)))
        for op in ('neg', 'not', 'inc', 'dec'):
            add('%s %s' % (op, R[w][0]))
            add('%s %s' % (op, m(w)))
        for op in ('shl', 'shr', 'sar', 'rol', 'ror', 'rcl', 'rcr'):
            add('%s %s, 1' % (op, R[w][0]))
            add('%s %s, 5' % (op, R[w][1]))
            add('%s %s, %d' % (op, R[w][0], w - 1))
            add('%s %s, cl' % (op, R[w][0]), pool={'rcx': 'count'})
            add('%s %s, cl' % (op, m(w)), pool={'rcx': 'count'})
        for op in ('mul', 'imul'):
            add('%s %s' % (op, S[w]))
            add('%s %s' % (op, m(w)))
        for op in ('div', 'idiv'):
            add('%s %s' % (op, S[w]), native=False, pool={'rdx': 'small', 'rcx': 'divisor'})
            add('%s %s' % (op, m(w)), native=False, pool={'rdx': 'small'})
        add('setb %s' % R[8][w // 16 % 2] if w == 8 else 'mov %s, %s' % (R[w][0], S[w]))
        add('mov %s, %s' % (m(w), R[w][0]))
        add('mov %s, %s' % (R[w][1], m(w)))
        add('xchg %s, %s' % (R[w][0], S[w]))
        if w >= 16:
            add('imul %s, %s' % (R[w][0], S[w]))
            add('imul %s, %s, %s' % (R[w][1], S[w], '-3'))
            add('imul %s, %s, 0x1234' % (R[w][0], m(w)))
            for op in ('shld', 'shrd'):
                add('%s %s, %s, 3' % (op, R[w][0], S[w] if w != 16 else 'cx'))
                if w != 16:
                    add('%s %s, %s, cl' % (op, R[w][1], 'rdx' if w == 64 else 'edx'), pool={'rcx': 'count'})
            for op in ('bt', 'bts', 'btr', 'btc'):
                add('%s %s, %s' % (op, R[w][0], S[w]))
                add('%s %s, 7' % (op, R[w][1]))
                add('%s %s, %d' % (op, m(w), w - 3))
                add('%s %s, %s' % (op, m(w, 64), S[w]), pool={'rcx': 'bitoffset'})
            for op in ('bsf', 'bsr', 'tzcnt'):
                add('%s %s, %s' % (op, R[w][0], S[w]))
                add('%s %s, %s' % (op, R[w][1], m(w)))
            for op in ('lzcnt', 'popcnt'):
                add('%s %s, %s' % (op, R[w][0], S[w]), unicorn=False)
                add('%s %s, %s' % (op, R[w][1], m(w)), unicorn=False)
            for cc in CONDS:
                add('cmov%s %s, %s' % (cc, R[w][0], S[w]))
            add('cmovne %s, %s' % (R[w][1], m(w)))
        if w < 32:
            for to in [t for t in (16, 32, 64) if t > w]:
                add('movzx %s, %s' % (R[to][0], S[w] if w != 8 or to == 64 else 'ch'))
                add('movzx %s, %s' % (R[to][1], S[w]))
                add('movsx %s, %s' % (R[to][0], S[w]))
                add('movzx %s, %s' % (R[to][0], m(w)))
                add('movsx %s, %s' % (R[to][1], m(w)))
    add('movsxd rax, ecx')
    add('movsxd r9, dword ptr [rsi + 8]')
    for op in ('cbw', 'cwde', 'cdqe', 'cwd', 'cdq', 'cqo'):
        add(op)
    add('bswap eax')
    add('bswap r9')
    add('movabs rax, 0x123456789abcdef0')
    add('lea rax, [rcx + rdx*4 + 0x10]')
    add('lea r9d, [rcx + rcx*2 - 7]')
    add('lea eax, [rdx + 8]')
    for cc in CONDS:
        add('set%s al' % cc)
        add('set%s %s' % (cc, m(8)))
        add('j%s $+0x40' % cc, native=False)
    add('jrcxz $+0x40', native=False, pool={'rcx': 'small'})
    add('jmp $+0x40', native=False)
    add('jmp rcx', native=False)
    add('jmp qword ptr [rsi + 8]', native=False)
    add('je $+0x400', native=False)
    add('push rcx', native=False)
    add('push qword ptr [rsi + 8]', native=False)
    add('push -5', native=False)
    add('pop rcx', native=False)
    add('pop qword ptr [rsi + 8]', native=False)
    add('leave', native=False, pool={'rbp': 'stack'})
    add('call $+0x40', native=False)
    add('call rcx', native=False)
    add('call qword ptr [rsi + 8]', native=False)
    add('ret', native=False)
    add('ret 0x10', native=False)
    add('.byte 0xf3, 0xc3', native=False, mnemonic='ret')                # rep ret
    add('.byte 0x3e, 0xff, 0xe1', native=False, mnemonic='jmp')          # notrack jmp rcx
    add('.byte 0x67, 0xe8, 0x40, 0, 0, 0', native=False, mnemonic='call')    # addr32 call
    add('cld')
    add('std')
    add('nop')
    add('.byte 0x66, 0x90', mnemonic='nop')
    add('nop dword ptr [rax + rax]')
    add('.byte 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0', mnemonic='nop')
    add('pause')
    add('endbr64')
    add('endbr32')
    for op in ('prefetchnta', 'prefetcht0', 'prefetcht1', 'prefetcht2', 'prefetchw'):
        add('%s byte ptr [rsi + 8]' % op)
    for op in ('ud2', 'int3', 'int1'):
        add(op, faults=True)
    add('.byte 0xcd, 0x03', faults=True, mnemonic='int')        # int 3 (gas writes int3 for it)
    add('hlt', faults=True, unicorn=False)          # unicorn stops at hlt; the CPU faults (#GP at CPL 3)
    add('rep stosd', native=False, pool={'rcx': 'small', 'rdi': 'data'})
    add('rep movsq', native=False, pool={'rcx': 'small', 'rdi': 'data'})
    add('movsb', native=False, pool={'rdi': 'data'})
    for op in ('movsw', 'movsd', 'movsq', 'stosb', 'stosw', 'stosd', 'stosq'):
        add(op, native=False, pool={'rdi': 'data'})
    add('rep movsb', native=False, pool={'rcx': 'small', 'rdi': 'data'})
    # ---- the control and status of the float units
    add('stmxcsr dword ptr [rsi + 8]')
    add('vstmxcsr dword ptr [rsi + 8]', unicorn=False)
    add('ldmxcsr dword ptr [rsi + 8]', pool={'mem': 'mxcsr'})
    add('vldmxcsr dword ptr [rsi + 8]', unicorn=False, pool={'mem': 'mxcsr'})
    add('fnstcw word ptr [rsi + 8]')
    add('fldcw word ptr [rsi + 8]', pool={'mem': 'fcw'})
    add('fnstenv [rsi + 8]', pool={'mem': 'x87env'})
    add('fldenv [rsi + 8]', pool={'mem': 'x87env'})
    add('wait')
    # ---- SSE and their VEX forms
    x = 'xmm0, xmm1'
    for op in ('pxor', 'por', 'pand', 'pandn', 'xorps', 'orps', 'andps', 'andnps', 'xorpd', 'orpd', 'andpd', 'andnpd',
               'pcmpeqb', 'pcmpeqw', 'pcmpeqd', 'pcmpeqq', 'pcmpgtb', 'pcmpgtw', 'pcmpgtd', 'pcmpgtq',
               'punpcklbw', 'punpcklwd', 'punpckldq', 'punpcklqdq', 'punpckhbw', 'punpckhwd', 'punpckhdq',
               'punpckhqdq', 'unpcklps', 'unpckhps', 'unpcklpd', 'unpckhpd', 'paddb', 'paddw', 'paddd', 'paddq',
               'psubb', 'psubw', 'psubd', 'psubq', 'psllw', 'pslld', 'psllq', 'psrlw', 'psrld', 'psrlq', 'psraw',
               'psrad'):
        lane_shift = op[:3] in ('psl', 'psr')
        add('%s %s' % (op, x), unicorn=op not in ('pcmpeqq', 'pcmpgtq'), pool={'xmm1': 'count'} if lane_shift else None)
        add('%s xmm2, %s' % (op, m(128, 16)), unicorn=op not in ('pcmpeqq', 'pcmpgtq'),
            pool={'mem': 'count'} if lane_shift else None)
        add('v%s xmm3, xmm4, xmm5' % op, unicorn=False, pool={'xmm5': 'count'} if lane_shift else None)
        if not lane_shift:
            add('v%s ymm3, ymm4, ymm5' % op, unicorn=False)
            add('v%s ymm6, ymm7, %s' % (op, m(256, 0)), unicorn=False)
        else:
            add('v%s ymm3, ymm4, xmm5' % op, unicorn=False, pool={'xmm5': 'count'})
    for op in ('psllw', 'pslld', 'psllq', 'psrlw', 'psrld', 'psrlq', 'psraw', 'psrad', 'pslldq', 'psrldq'):
        for n in (0, 3, 15, 17, 33, 64):
            add('%s xmm1, %d' % (op, n))
        add('v%s ymm2, ymm3, 5' % op, unicorn=False)
    for op in ('pshufd', 'pshuflw', 'pshufhw'):
        add('%s xmm0, xmm1, 0x1b' % op)
        add('%s xmm2, %s, 0xd8' % (op, m(128, 16)))
        add('v%s ymm3, ymm4, 0x4e' % op, unicorn=False)
    add('shufps xmm0, xmm1, 0x93')
    add('shufpd xmm0, xmm1, 0x2')
    add('vshufps ymm0, ymm1, ymm2, 0x39', unicorn=False)
    add('vshufpd xmm0, xmm1, xmm2, 0x1', unicorn=False)
    for op in ('pmovmskb', 'movmskps', 'movmskpd'):
        add('%s eax, xmm1' % op)
        add('v%s r9d, ymm2' % op, unicorn=False)
    add('pextrw eax, xmm1, 5')
    add('pextrw word ptr [rsi + 8], xmm1, 3')
    add('vpextrw eax, xmm1, 6', unicorn=False)
    add('pinsrw xmm1, ecx, 6')
    add('pinsrw xmm1, word ptr [rsi + 8], 1')
    add('vpinsrw xmm1, xmm2, ecx, 3', unicorn=False)
    for op in ('movaps', 'movups', 'movapd', 'movupd', 'movdqa', 'movdqu'):
        add('%s xmm0, xmm1' % op)
        add('%s xmm2, %s' % (op, m(128, 16)))
        add('%s %s, xmm3' % (op, m(128, 32)))
        add('v%s ymm0, ymm1' % op, unicorn=False)
        add('v%s xmm2, %s' % (op, m(128, 16)), unicorn=False)
        add('v%s %s, ymm3' % (op, m(256, 0)), unicorn=False)
    for op in ('movd', 'movq'):
        r = 'ecx' if op == 'movd' else 'rcx'
        add('%s xmm0, %s' % (op, r))
        add('%s %s, xmm1' % (op, r))
        add('%s xmm2, %s' % (op, m(32 if op == 'movd' else 64)))
        add('%s %s, xmm3' % (op, m(32 if op == 'movd' else 64)))
        add('v%s xmm4, %s' % (op, r), unicorn=False)
    add('movq xmm0, xmm1')
    for op in ('movhps', 'movlps', 'movhpd', 'movlpd'):
        add('%s xmm0, %s' % (op, m(64)))
        add('%s %s, xmm1' % (op, m(64)))
        add('v%s xmm2, xmm3, %s' % (op, m(64)), unicorn=False)
    add('movhlps xmm0, xmm1')
    add('movlhps xmm0, xmm1')
    add('vmovhlps xmm0, xmm1, xmm2', unicorn=False)
    add('vmovlhps xmm0, xmm1, xmm2', unicorn=False)
    add('vzeroupper', unicorn=False)
    add('vzeroall', unicorn=False)
    add('lddqu xmm2, %s' % m(128, 8))
    add('vlddqu ymm2, %s' % m(256, 8), unicorn=False)
    add('movntdq %s, xmm3' % m(128, 16))
    add('vmovntdq %s, ymm3' % m(256, 0), unicorn=False)
    add('movntps %s, xmm3' % m(128, 32))
    add('vmovntps %s, xmm3' % m(128, 16), unicorn=False)
    for s_, n in (('ss', 32), ('sd', 64)):
        add('mov%s xmm0, xmm1' % s_, pool={'xmm': 'fp%d' % n})
        add('mov%s xmm2, %s' % (s_, m(n)), pool={'xmm': 'fp%d' % n})
        add('mov%s %s, xmm3' % (s_, m(n)), pool={'xmm': 'fp%d' % n})
        add('vmov%s xmm0, xmm1, xmm2' % s_, unicorn=False, pool={'xmm': 'fp%d' % n})
        for op in ('ucomi', 'comi'):
            add('%s%s xmm0, xmm1' % (op, s_), pool={'xmm': 'fp%d' % n})
            add('%s%s xmm2, %s' % (op, s_, m(n)), pool={'xmm': 'fp%d' % n, 'mem': 'fp%d' % n})
            add('v%s%s xmm3, xmm4' % (op, s_), unicorn=False, pool={'xmm': 'fp%d' % n})
        for k in range(8):
            add('cmp%s xmm0, xmm1, %d' % (s_, k), pool={'xmm': 'fp%d' % n})
            add('cmp%s xmm2, %s, %d' % (s_, m(n), k), pool={'xmm': 'fp%d' % n, 'mem': 'fp%d' % n})
        for k in range(32):
            add('vcmp%s xmm0, xmm1, xmm2, %d' % (s_, k), unicorn=False, pool={'xmm': 'fp%d' % n})
        add('div%s xmm0, xmm1' % s_, pool={'xmm': 'fp%d' % n})
        add('vdiv%s xmm3, xmm4, xmm5' % s_, unicorn=False, pool={'xmm': 'fp%d' % n})
    add('cvtss2sd xmm0, xmm1', pool={'xmm': 'fp32'})
    add('cvtss2sd xmm2, %s' % m(32), pool={'xmm': 'fp32', 'mem': 'fp32'})
    add('cvtsd2ss xmm0, xmm1', pool={'xmm': 'fp64'})
    add('vcvtss2sd xmm0, xmm1, xmm2', unicorn=False, pool={'xmm': 'fp32'})
    add('vcvtsd2ss xmm0, xmm1, xmm2', unicorn=False, pool={'xmm': 'fp64'})
    out += check_forms.forms(Form, m)
    return out
