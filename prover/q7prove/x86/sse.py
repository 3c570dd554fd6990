# SPDX-License-Identifier: BSD-3-Clause
"""SSE/SSE2 and their VEX forms at 128 and 256 bits: lanes, integer lane
arithmetic and compares, shuffles, unpacks, shifts, vector moves."""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.state import VLEN, as_number
from q7prove.x86.semantics import msb


# ---- vectors: lanes ------------------------------------------------------------

def lanes(x, lw, w):
    """The w-bit x as w/lw elements of lw bits, lowest first. A
    concatenation (what join builds) is cut along its parts, each element
    taken from the one or two parts it lies in, not out of the whole."""
    if type(x) is int or not z3.is_app_of(x, z3.Z3_OP_CONCAT):
        return [bv.extract(x, lw * k + lw - 1, lw * k, w) for k in range(w // lw)]
    parts, lo = [], 0                       # (low bit, width, term), lowest first
    todo = [x]                              # z3 nests a long concatenation: flattened, lowest part first
    while todo:
        t = todo.pop()
        if z3.is_app_of(t, z3.Z3_OP_CONCAT):
            todo.extend(t.children())
            continue
        n = t.size()
        parts.append((lo, n, t.as_long() if z3.is_bv_value(t) else t))
        lo += n
    out, p = [], 0
    for k in range(w // lw):
        a, b = lw * k, lw * k + lw
        while parts[p][0] + parts[p][1] <= a:
            p += 1
        bits, q = [], p
        while a < b:
            plo, pn, t = parts[q]
            hi = min(b, plo + pn)
            bits.append((bv.extract(t, hi - 1 - plo, a - plo, pn), hi - a))
            a, q = hi, q + 1
        out.append(bits[0][0] if len(bits) == 1 else bv.concat(list(reversed(bits))))
    return out


def join(ls, lw):
    return bv.concat([(v, lw) for v in reversed(ls)])


def per128(fn, a, b, w, *extra):
    """fn applied to each 128-bit lane of a and b (AVX2 works lane by lane)."""
    return join([fn(x, y, 128, *extra) for x, y in zip(lanes(a, 128, w), lanes(b, 128, w))], 128)


def vec_operands(m, i, align_legacy=True):
    """(destination, first source value, second source value, width, vex):
    a legacy op reads its destination as the first source; a 128-bit
    memory operand of a legacy op must be 16-aligned."""
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    w = 8 * d.size
    srcs = i.ops[1:] if vex else i.ops
    b_op = srcs[1] if len(srcs) > 1 and srcs[1].kind != 'imm' else srcs[-1] if srcs[-1].kind != 'imm' else srcs[-2]
    if not vex and b_op.kind == 'mem' and b_op.size == 16 and align_legacy:
        m.aligned(m.ea(b_op), 16)
    a = m.get(srcs[0]) if len(srcs) > 1 or not vex else None
    b = m.get(b_op)
    return d, a, b, w, vex


def vec_binary(lane_fn, lw=None):
    """A lane-wise op of two vectors: lane_fn(x, y, lw) per lw-bit lane."""
    def op(m, i):
        d, a, b, w, vex = vec_operands(m, i)
        r = join([lane_fn(x, y, lw) for x, y in zip(lanes(a, lw, w), lanes(b, lw, w))], lw) if lw else lane_fn(a, b, w)
        m.put(d, r, vex)
    return op


vec_xor = vec_binary(bv.xor)
vec_or = vec_binary(bv.or_)
vec_and = vec_binary(bv.and_)
vec_andn = vec_binary(lambda x, y, w: bv.and_(bv.not_(x, w), y, w))


def vec_cmpeq(lw):
    return vec_binary(lambda x, y, lw: bv.ite(bv.eq(x, y, lw), bv.mask(lw), 0, lw), lw)


def vec_cmpgt(lw):
    return vec_binary(lambda x, y, lw: bv.ite(bv.slt(y, x, lw), bv.mask(lw), 0, lw), lw)


def vec_add(lw):
    return vec_binary(bv.add, lw)


def vec_sub(lw):
    return vec_binary(bv.sub, lw)


def unpack_lanes(lw, high):
    """The low (high) halves of each 128-bit lane of two w-bit values interleaved."""
    def lane(x, y, w):
        xs, ys = lanes(x, lw, w), lanes(y, lw, w)
        half = len(xs) // 2
        xs, ys = (xs[half:], ys[half:]) if high else (xs[:half], ys[:half])
        return join([v for pair in zip(xs, ys) for v in pair], lw)
    return lambda x, y, w: per128(lane, x, y, w)


def unpack(lw, high):
    """punpckl*/punpckh*/unpck*: unpack_lanes on two vector operands."""
    return vec_binary(unpack_lanes(lw, high))


def _shuffle_imm(m, i):
    return i.ops[-1].imm & 0xff


def pshuf(m, i):
    d, s = i.ops[0], i.ops[1]
    w = 8 * d.size
    vex = i.mnemonic.startswith('v')
    if not vex and s.kind == 'mem':
        m.aligned(m.ea(s), 16)
    x, imm = m.get(s), _shuffle_imm(m, i)
    kind = i.mnemonic.lstrip('v')

    def lane(v, _unused, lw):
        if kind == 'pshufd':
            ds = lanes(v, 32, 128)
            return join([ds[(imm >> (2 * k)) & 3] for k in range(4)], 32)
        ws = lanes(v, 16, 128)
        lo, hi = ws[:4], ws[4:]
        if kind == 'pshuflw':
            lo = [ws[(imm >> (2 * k)) & 3] for k in range(4)]
        else:
            hi = [ws[4 + ((imm >> (2 * k)) & 3)] for k in range(4)]
        return join(lo + hi, 16)
    m.put(d, per128(lane, x, x, w), vex)


def shufp(m, i):
    d, a, b, w, vex = vec_operands(m, i)
    imm = _shuffle_imm(m, i)
    single = 'ps' in i.mnemonic

    def lane(x, y, lw):
        if single:
            xs, ys = lanes(x, 32, 128), lanes(y, 32, 128)
            return join([xs[imm & 3], xs[(imm >> 2) & 3], ys[(imm >> 4) & 3], ys[(imm >> 6) & 3]], 32)
        xs, ys = lanes(x, 64, 128), lanes(y, 64, 128)
        return join([xs[imm & 1], ys[(imm >> 1) & 1]], 64)
    if not single and w == 256:
        m.refuse('a 256-bit shufpd')
    m.put(d, per128(lane, a, b, w), vex)


def shift_lanes(kind, lw):
    """psll/psrl/psra by an immediate or by the low 64 bits of a vector."""
    def op(m, i):
        vex = i.mnemonic.startswith('v')
        d = i.ops[0]
        w = 8 * d.size
        srcs = i.ops[1:] if vex else i.ops
        x = m.get(srcs[0])
        c = srcs[-1]
        if c.kind == 'imm':
            n = c.imm & 0xff
        else:
            if not vex and c.kind == 'mem' and c.size == 16:
                m.aligned(m.ea(c), 16)
            n = bv.fold(bv.extract(m.get(c), 63, 0, 8 * c.size))
        if type(n) is int:
            big = n >= lw
            f = {'l': lambda v: 0 if big else bv.shl(v, n, lw), 'r': lambda v: 0 if big else bv.lshr(v, n, lw),
                 'a': lambda v: bv.ashr(v, min(n, lw - 1), lw)}[kind]
        else:
            big = z3.UGE(n, lw)
            nl = z3.Extract(lw - 1, 0, n) if lw < 64 else n
            f = {'l': lambda v: z3.If(big, z3.BitVecVal(0, lw), bv.term(v, lw) << nl),
                 'r': lambda v: z3.If(big, z3.BitVecVal(0, lw), z3.LShR(bv.term(v, lw), nl)),
                 'a': lambda v: bv.term(v, lw) >> z3.If(big, z3.BitVecVal(lw - 1, lw), nl)}[kind]
        m.put(d, join([f(v) for v in lanes(x, lw, w)], lw), vex)
    return op


def byte_shift(m, i):
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    w = 8 * d.size
    x = m.get(i.ops[1] if vex else d)
    n = i.ops[-1].imm & 0xff
    left = 'll' in i.mnemonic

    def lane(v, _unused, lw):
        if n > 15:
            return 0
        return bv.shl(v, 8 * n, 128) if left else bv.lshr(v, 8 * n, 128)
    m.put(d, per128(lane, x, x, w), vex)


def move_mask(m, i):
    d, s = i.ops
    w = 8 * s.size
    lw = 8 if 'pmovmskb' in i.mnemonic else 32 if 'ps' in i.mnemonic else 64
    bits = [bv.from_bool(msb(v, lw)) for v in lanes(m.get(s), lw, w)]
    m.put(d, bv.zext(join(bits, 1), len(bits), 8 * d.size))


def pextrw(m, i):
    d, s, c = i.ops
    k = c.imm & (7 if s.size == 16 else 15)
    word = bv.extract(m.get(s), 16 * k + 15, 16 * k, 8 * s.size)
    if d.kind == 'mem':
        m.put(d, word)
    else:
        m.put(d, bv.zext(word, 16, 8 * d.size))


def pinsrw(m, i):
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    base = m.get(i.ops[1] if vex else d)
    s, c = i.ops[-2], i.ops[-1]
    word = bv.extract(as_number(m.get(s), 8 * s.size), 15, 0, 8 * s.size)
    k = c.imm & 7
    ws = lanes(base, 16, 128)
    ws[k] = word
    m.put(d, join(ws, 16), vex)


# ---- vectors: moves ------------------------------------------------------------

ALIGNED = {'movaps', 'movapd', 'movdqa', 'vmovaps', 'vmovapd', 'vmovdqa'}


def vec_move(m, i):
    d, s = i.ops
    if i.mnemonic in ALIGNED or 'movnt' in i.mnemonic:
        for op in (d, s):
            if op.kind == 'mem':
                m.aligned(m.ea(op), op.size)
    m.put(d, m.get(s), i.mnemonic.startswith('v'))


def movdq(m, i):
    d, s = i.ops
    n = 4 if i.mnemonic.endswith('d') else 8
    v = bv.extract(as_number(m.get(s), 8 * s.size), 8 * n - 1, 0, 8 * s.size)
    if d.kind == 'reg' and d.reg.startswith('xmm'):
        m.put(d, bv.zext(v, 8 * n, 128), i.mnemonic.startswith('v'))
    else:
        m.put(d, v)


def move_half(m, i):
    high = 'h' in i.mnemonic.lstrip('v')[3]
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    if d.kind == 'mem':
        x = m.get(i.ops[1])
        m.put(d, bv.extract(x, 127, 64, 128) if high else bv.extract(x, 63, 0, 128))
        return
    base = m.get(i.ops[1] if vex else d)
    v = m.get(i.ops[-1])
    r = join([bv.extract(base, 63, 0, 128), v] if high else [v, bv.extract(base, 127, 64, 128)], 64)
    m.put(d, r, vex)


def move_halves(m, i):
    vex = i.mnemonic.startswith('v')
    d = i.ops[0]
    base = m.get(i.ops[1] if vex else d)
    s = m.get(i.ops[-1])
    if 'hl' in i.mnemonic:
        r = join([bv.extract(s, 127, 64, 128), bv.extract(base, 127, 64, 128)], 64)
    else:
        r = join([bv.extract(base, 63, 0, 128), bv.extract(s, 63, 0, 128)], 64)
    m.put(d, r, vex)


def vzero(m, i):
    for k in range(16):     # in 64-bit mode zmm16..zmm31 keep their bits
        m.s.vec[k] = 0 if i.mnemonic == 'vzeroall' else bv.zext(bv.extract(m.s.vec[k], 127, 0, VLEN), 128, VLEN)
