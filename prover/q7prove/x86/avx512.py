# SPDX-License-Identifier: BSD-3-Clause
"""The AVX-512 instructions (F, BW, VL, DQ; EVEX at 128, 256 and 512 bits)
and the opmask instructions, after the Intel SDM volume 2, for the
instructions x86/evex.py decodes (and only for those: an EVEX form is
looked up in this module's table, never in the VEX one).

Every EVEX form: the sources read at the vector length (a broadcast
memory operand is its one element repeated), the result written under the
writemask (k1..k7; k0 is no mask): a masked-off element keeps the
destination's (merging) or is 0 (zeroing, EVEX.z), every bit above the
vector length is 0. Where the SDM suppresses faults (the memory operand's
elements are the mask's: moves, element-wise operations, compares,
widening loads, narrowing and every masked store), a masked-off element of
memory is neither read nor written and cannot fault; elsewhere the whole
operand is read. A compare or test writes its bits into an opmask,
ANDed with the writemask, every bit above the element count 0.

  moves      vmovdqa32/64 (aligned) vmovdqu8/16/32/64 vmovaps/apd/ups/upd
             vmovd vmovq, vpbroadcast* (from xmm, memory or a general
             register), vbroadcasti32x2/32x4/64x2/32x8/64x4 vbroadcastss/sd,
             vinserti*/vinsertf*, vextracti*/vextractf*, vpinsr* vpextr*,
             vpmovzx* vpmovsx*, vpmovqb/qw/qd/db/dw/wb (truncating),
             vpcompressd/q vpexpandd/q
  integer    vpand/andn/or/xor d/q, vand/andn/or/xor ps/pd, vpadd* vpsub*,
             vpmin*/vpmax* vpabs* vpavg* vpmullw vpmulld vpmullq vpmuludq,
             vpternlogd/q, shifts by imm8, by xmm and per element, rotates
  compares   vpcmpeq* vpcmpgt* vpcmp[u]b/w/d/q (imm8 predicate) vptestm*
             vptestnm* into an opmask; vpmovm2* vpmov*2m
  shuffles   vpblendm* vblendmps/pd, vpshufb vpshufd vpshufhw vpshuflw,
             vpermd/q/b/w (and vpermq imm8), vpermi2*/vpermt2*, vpermilps,
             vshufi32x4/64x2, valignd/q, vpalignr, vpunpck*, vpack*, vunpck*,
             vshufps/pd
  opmask     kand kandn kor kxor kxnor kadd knot kmov kortest ktest kshiftl
             kshiftr kunpck (b w d q), in x86/opmask.py
"""

from q7prove.smt import bitvec as bv
from q7prove.machine.state import as_number
from q7prove.x86 import sse
from q7prove.x86 import opmask, simd
from q7prove.x86.sse import join, lanes

# ---- reading and writing under the mask -----------------------------------------------


def mask_bits(m, i, n):
    """The writemask's n low bits as truths (all True without a mask)."""
    if i.mask is None:
        return [True] * n
    k = m.s.reg(i.mask)
    return [bv.fold(bv.bit(k, j, 64)) if type(k) is not int else bool(k >> j & 1) for j in range(n)]


def read(m, i, op, bits=None):
    """An operand's value at `bits` (a register's low bits; memory whole,
    broadcast, or element by element under the mask where the SDM
    suppresses the masked-off elements' faults)."""
    if op.kind == 'imm':
        return op.imm
    if op.kind == 'reg':
        v = m.get(op)
        w = 8 * op.size
        return v if bits is None or bits >= w or op.reg.startswith('k') else bv.extract(v, bits - 1, 0, w)
    addr = m.ea(op)
    if i.bcast:
        e = m.load(addr, op.size)
        return join([e] * i.bcast, 8 * op.size)
    if i.mask is not None and i.elements:
        n = i.vl // i.ew
        es = op.size // n
        if es * n == op.size and es:
            return join([m.load_if(b, m.offset(addr, j * es), es) for j, b in enumerate(mask_bits(m, i, n))],
                        8 * es)
    return m.load(addr, op.size)


def write(m, i, d, r, rbits=None, ew=None, merge=None):
    """r (rbits bits, the vector length's by default) into d under the
    writemask, per ew-bit element: a masked-off element is merge's (the
    destination's by default) or 0 with zeroing; a register's bits above
    rbits are 0; a memory destination gets only the unmasked elements."""
    rbits = rbits or i.vl
    ew = ew or i.ew
    if d.kind == 'mem':
        if i.mask is None:
            m.put(d, r)
            return
        n = rbits // ew
        addr = m.ea(d)
        for j, (b, v) in enumerate(zip(mask_bits(m, i, n), lanes(r, ew, rbits))):
            m.store_if(b, m.offset(addr, j * ew // 8), ew // 8, v)
        return
    if i.mask is not None:
        n = rbits // ew
        if merge is None:
            merge = 0 if i.zeroing else bv.extract(m.get(d), rbits - 1, 0, 8 * d.size)
        elif i.zeroing:
            merge = 0
        olds = lanes(merge, ew, rbits)
        r = join([bv.ite(b, x, o, ew) for b, x, o in zip(mask_bits(m, i, n), lanes(r, ew, rbits), olds)], ew)
    m.put(d, bv.zext(r, rbits, 8 * d.size) if rbits < 8 * d.size else r, True)


def write_k(m, i, d, truths):
    """Compare results into an opmask: ANDed with the writemask, the bits above 0."""
    bits = [bv.band(t, b) for t, b in zip(truths, mask_bits(m, i, len(truths)))]
    m.put(d, bv.zext(join([bv.from_bool(b) for b in bits], 1), len(bits), 64) if len(bits) < 64
          else join([bv.from_bool(b) for b in bits], 1))


def _srcs(m, i):
    """The non-immediate sources' values at the vector length, and the immediate (or None)."""
    imm = i.ops[-1].imm & 0xff if i.ops[-1].kind == 'imm' else None
    return [read(m, i, o, i.vl) for o in i.ops[1:] if o.kind != 'imm'], imm


# ---- model builders ------------------------------------------------------------------

def elementwise(fn, unary=False):
    """fn(x, y) (or fn(x)) on every element."""
    def op(m, i):
        vals, _ = _srcs(m, i)
        ew, w = i.ew, i.vl
        if unary:
            r = join([fn(x) for x in lanes(vals[-1], ew, w)], ew)
        else:
            r = join([fn(x, y) for x, y in zip(lanes(vals[0], ew, w), lanes(vals[1], ew, w))], ew)
        write(m, i, i.ops[0], r)
    return op


def whole(fn, ew=None):
    """fn(sources..., imm, vl) of the whole vectors."""
    def op(m, i):
        vals, imm = _srcs(m, i)
        write(m, i, i.ops[0], fn(*vals, imm, i.vl), ew=ew)
    return op


def move(aligned):
    def op(m, i):
        d, s = i.ops
        if aligned:
            for o in (d, s):
                if o.kind == 'mem':
                    m.aligned(m.ea(o), o.size)
        write(m, i, d, read(m, i, s, i.vl))
    return op


def compare(pred):
    """pred(x, y, ew, imm) -> truth per element, into an opmask."""
    def op(m, i):
        vals, imm = _srcs(m, i)
        ew, w = i.ew, i.vl
        write_k(m, i, i.ops[0], [pred(x, y, ew, imm) for x, y in zip(lanes(vals[0], ew, w), lanes(vals[1], ew, w))])
    return op


def _cmp_imm(signed):
    def pred(x, y, ew, imm):
        lt = bv.slt if signed else bv.ult
        return [bv.eq(x, y, ew), lt(x, y, ew), bv.bor(lt(x, y, ew), bv.eq(x, y, ew)), False,
                bv.bnot(bv.eq(x, y, ew)), bv.bnot(lt(x, y, ew)), lt(y, x, ew), True][imm & 7]
    return pred


def blendm(m, i):
    """vpblendm*: the second source where the mask is set (everywhere without
    one), else the first source (merging) or 0 (zeroing)."""
    vals, _ = _srcs(m, i)
    if i.mask is None:
        write(m, i, i.ops[0], vals[1])
        return
    write(m, i, i.ops[0], vals[1], merge=vals[0])


def ternlog(m, i):
    d = i.ops[0]
    vals, imm = _srcs(m, i)
    a = read(m, i, d, i.vl)
    write(m, i, d, simd.ternary(a, vals[0], vals[1], imm, i.vl))


def permute2(index_in_dest):
    """vpermt2* (d = first table, index, second table) and vpermi2* (d = index, first table, second table)."""
    def op(m, i):
        d = i.ops[0]
        vals, _ = _srcs(m, i)
        cur = read(m, i, d, i.vl)
        if index_in_dest:
            t1, idx, t2 = vals[0], cur, vals[1]
        else:
            t1, idx, t2 = cur, vals[0], vals[1]
        write(m, i, d, simd.permute2(t1, idx, t2, i.vl, i.ew))
    return op


def vpermq_imm(m, i):
    vals, imm = _srcs(m, i)
    write(m, i, i.ops[0], simd.permute_imm4(vals[0], imm, i.vl, 64))


def vperm(m, i):
    vals, _ = _srcs(m, i)          # vperm* d, index, table
    write(m, i, i.ops[0], simd.permute_var(vals[1], vals[0], i.vl, i.ew))


def vpermil(m, i):
    vals, imm = _srcs(m, i)
    r = simd.permil_imm(vals[0], imm, i.vl, 32) if imm is not None else simd.permil_var(vals[0], vals[1], i.vl, 32)
    write(m, i, i.ops[0], r)


def shuffle128(m, i):
    vals, imm = _srcs(m, i)
    write(m, i, i.ops[0], simd.shuffle_128(vals[0], vals[1], imm, i.vl))


def align(m, i):
    """valignd/q: (first:second) shifted right by imm elements, the low vector length."""
    vals, imm = _srcs(m, i)
    n = i.vl // i.ew
    both = bv.concat([(vals[0], i.vl), (vals[1], i.vl)])
    write(m, i, i.ops[0], bv.extract(bv.lshr(both, (imm % n) * i.ew, 2 * i.vl), i.vl - 1, 0, 2 * i.vl))


def per_lane(fn):
    """fn(x, y, 128[, imm]) per 128-bit lane of the two sources."""
    def op(m, i):
        vals, imm = _srcs(m, i)
        xs, ys = lanes(vals[0], 128, i.vl), lanes(vals[-1], 128, i.vl)
        r = join([fn(x, y, 128) if imm is None else fn(x, y, 128, imm) for x, y in zip(xs, ys)], 128)
        write(m, i, i.ops[0], r)
    return op


def _pshuf(kind):
    def lane(x, _y, _w, imm):
        if kind == 'd':
            ds = lanes(x, 32, 128)
            return join([ds[(imm >> (2 * k)) & 3] for k in range(4)], 32)
        ws = lanes(x, 16, 128)
        lo, hi = ws[:4], ws[4:]
        if kind == 'lw':
            lo = [ws[(imm >> (2 * k)) & 3] for k in range(4)]
        else:
            hi = [ws[4 + ((imm >> (2 * k)) & 3)] for k in range(4)]
        return join(lo + hi, 16)
    return per_lane(lane)


def _shufp(single):
    def lane(x, y, _w, imm):
        if single:
            xs, ys = lanes(x, 32, 128), lanes(y, 32, 128)
            return join([xs[imm & 3], xs[(imm >> 2) & 3], ys[(imm >> 4) & 3], ys[(imm >> 6) & 3]], 32)
        return None
    if single:
        return per_lane(lane)

    def op(m, i):                  # vshufpd: imm bit per element over the whole vector
        vals, imm = _srcs(m, i)
        out = []
        for k, (x, y) in enumerate(zip(lanes(vals[0], 128, i.vl), lanes(vals[1], 128, i.vl))):
            xs, ys = lanes(x, 64, 128), lanes(y, 64, 128)
            out.append(join([xs[(imm >> (2 * k)) & 1], ys[(imm >> (2 * k + 1)) & 1]], 64))
        write(m, i, i.ops[0], join(out, 128))
    return op


def shift_imm(kind):
    """By imm8: d (the vvvv register) from the r/m source."""
    def op(m, i):
        d, s, c = i.ops
        x = read(m, i, s, i.vl)
        f = simd.shift_all(kind, i.ew, c.imm & 0xff)
        write(m, i, d, join([f(v) for v in lanes(x, i.ew, i.vl)], i.ew))
    return op


def shift_xmm(kind):
    """By the low 64 bits of an xmm or a 16-byte memory operand."""
    def op(m, i):
        d, a, c = i.ops
        x = read(m, i, a, i.vl)
        n = bv.fold(bv.extract(read(m, i, c, 128) if c.kind == 'mem' else m.get(c), 63, 0, 128))
        f = simd.shift_all(kind, i.ew, n)
        write(m, i, d, join([f(v) for v in lanes(x, i.ew, i.vl)], i.ew))
    return op


def shift_var(kind):
    def op(m, i):
        vals, _ = _srcs(m, i)
        f = simd.shift_each(kind, i.ew)
        write(m, i, i.ops[0], join([f(x, n) for x, n in zip(lanes(vals[0], i.ew, i.vl), lanes(vals[1], i.ew, i.vl))],
                                   i.ew))
    return op


def rotate(left):
    def op(m, i):
        d, s, c = i.ops
        x = read(m, i, s, i.vl)
        f = simd.rotate_each(left, i.ew, c.imm & 0xff)
        write(m, i, d, join([f(v) for v in lanes(x, i.ew, i.vl)], i.ew))
    return op


def byte_shift(left):
    """vpslldq/vpsrldq: each 128-bit lane by imm bytes (past 15: 0); no masking."""
    def op(m, i):
        d, s, c = i.ops
        x = read(m, i, s, i.vl)
        n = c.imm & 0xff
        r = join([0 if n > 15 else (bv.shl if left else bv.lshr)(v, 8 * n, 128) for v in lanes(x, 128, i.vl)], 128)
        write(m, i, d, r)
    return op


def broadcast(lw):
    """From the low lw bits of an xmm, a general register or memory."""
    def op(m, i):
        d, s = i.ops
        v = bv.extract(as_number(m.get(s), 8 * s.size), lw - 1, 0, 8 * s.size)
        write(m, i, d, join([v] * (i.vl // lw), lw))
    return op


def insert_block(bits):
    def op(m, i):
        d, a, b, c = i.ops
        blocks = lanes(read(m, i, a, i.vl), bits, i.vl)
        blocks[c.imm % len(blocks)] = read(m, i, b, bits)
        write(m, i, d, join(blocks, bits))
    return op


def extract_block(bits):
    def op(m, i):
        d, s, c = i.ops
        blocks = lanes(read(m, i, s, i.vl), bits, i.vl)
        write(m, i, d, blocks[c.imm % len(blocks)], rbits=bits)
    return op


def extend(fw, signed):
    """vpmovzx/sx: the low vl/ew fw-bit elements of the source, widened."""
    def op(m, i):
        d, s = i.ops
        n = i.vl // i.ew
        x = read(m, i, s, n * fw)
        write(m, i, d, simd.extend(x, n * fw, fw, i.ew, n, signed))
    return op


def narrow(fw):
    """vpmovqb and kin: each fw-bit element truncated to ew bits; a register
    destination's bits above them 0."""
    def op(m, i):
        d, s = i.ops
        n = i.vl // fw
        x = read(m, i, s, i.vl)
        write(m, i, d, simd.truncate(x, fw, i.ew, n), rbits=n * i.ew)
    return op


def _count_on(cnt, b):
    """cnt + b: a number while both are known, else an 8-bit term."""
    if type(cnt) is int and type(b) is bool:
        return cnt + b
    return bv.add(cnt, bv.from_bool(b, 8), 8)


def compress(m, i):
    """vpcompressd/q: the unmasked elements, packed from element 0 (a
    register's other elements merged or zeroed, memory's left alone)."""
    d, s = i.ops
    n, ew = i.vl // i.ew, i.ew
    bits = mask_bits(m, i, n)
    els = lanes(read(m, i, s, i.vl), ew, i.vl)
    if d.kind == 'mem':
        addr = m.ea(d)
        pos = 0
        for b, v in zip(bits, els):
            at = pos * ew // 8 if type(pos) is int else bv.mul(bv.zext(pos, 8, 64), ew // 8, 64)
            m.store_if(b, m.offset(addr, at), ew // 8, v)
            pos = _count_on(pos, b)
        return
    out = [None] * n       # slot k: the k-th unmasked element, else the old (or 0)
    old = lanes(0 if i.zeroing else read(m, i, d, i.vl), ew, i.vl)
    for k in range(n):
        acc = old[k]
        cnt = 0
        for j in range(n):
            # element j lands in slot k when it is unmasked and k elements before it are
            hit = bv.band(bits[j], bv.eq(cnt, k, 8))
            acc = bv.ite(hit, els[j], acc, ew)
            cnt = _count_on(cnt, bits[j])
        out[k] = acc
    m.put(d, bv.zext(join(out, ew), i.vl, 8 * d.size) if i.vl < 8 * d.size else join(out, ew), True)


def expand(m, i):
    """vpexpandd/q: unmasked element k is the next source element (memory:
    only as many elements read as the mask has bits)."""
    d, s = i.ops
    n, ew = i.vl // i.ew, i.ew
    bits = mask_bits(m, i, n)
    if s.kind == 'mem':
        addr = m.ea(s)
        total = 0
        for b in bits:
            total = _count_on(total, b)
        src = [m.load_if(bv.fold(bv.ult(j, total, 8)), m.offset(addr, j * ew // 8), ew // 8) for j in range(n)]
    else:
        src = lanes(read(m, i, s, i.vl), ew, i.vl)
    out, cnt = [], 0
    for k in range(n):
        out.append(simd.select(join(src, ew), ew, cnt, n) if type(cnt) is not int else src[cnt % n])
        cnt = _count_on(cnt, bits[k])
    write(m, i, d, join(out, ew))


def pmovm2(m, i):
    d, k = i.ops
    kv = m.get(k)
    n = i.vl // i.ew
    write(m, i, d, join([bv.ite(bv.bit(kv, j, 64), bv.mask(i.ew), 0, i.ew) for j in range(n)], i.ew))


def pmov2m(m, i):
    d, s = i.ops
    x = read(m, i, s, i.vl)
    write_k(m, i, d, [bv.bit(v, i.ew - 1, i.ew) for v in lanes(x, i.ew, i.vl)])


def movdq(m, i):
    """vmovd/vmovq: as the VEX forms (no masking, no broadcast)."""
    sse.movdq(m, i)


def insert(lw):
    def op(m, i):
        d, a, s, c = i.ops
        els = lanes(m.get(a), lw, 128)
        els[c.imm % (128 // lw)] = bv.extract(as_number(m.get(s), 8 * s.size), lw - 1, 0, 8 * s.size)
        m.put(d, join(els, lw), True)
    return op


def _logic(fn):
    return lambda ew: (lambda x, y: fn(x, y, ew))


def _ew_fn(make):
    """An element function that depends on the instruction's element width."""
    def op(m, i):
        return elementwise(make(i.ew))(m, i)
    return op


def _ew_unary(make):
    def op(m, i):
        return elementwise(make(i.ew), unary=True)(m, i)
    return op


# ---- registration: mnemonic -> model, for the instructions x86/evex.py decodes
MODELS = {}


def _reg(names, fn):
    for n in names.split():
        MODELS[n] = fn


_reg('vmovdqa32 vmovdqa64 vmovaps vmovapd', move(True))
_reg('vmovdqu8 vmovdqu16 vmovdqu32 vmovdqu64 vmovups vmovupd', move(False))
_reg('vmovntdq', move(True))
_reg('vmovd vmovq', movdq)
_reg('vpandd vpandq vandps vandpd', _ew_fn(_logic(bv.and_)))
_reg('vpord vporq vorps vorpd', _ew_fn(_logic(bv.or_)))
_reg('vpxord vpxorq vxorps vxorpd', _ew_fn(_logic(bv.xor)))
_reg('vpandnd vpandnq vandnps vandnpd', _ew_fn(lambda ew: lambda x, y: bv.and_(bv.not_(x, ew), y, ew)))
_reg('vpaddb vpaddw vpaddd vpaddq', _ew_fn(_logic(bv.add)))
_reg('vpsubb vpsubw vpsubd vpsubq', _ew_fn(_logic(bv.sub)))
_reg('vpminsb vpminsw vpminsd vpminsq', _ew_fn(lambda ew: simd.minmax(ew, True, False)))
_reg('vpminub vpminuw vpminud vpminuq', _ew_fn(lambda ew: simd.minmax(ew, False, False)))
_reg('vpmaxsb vpmaxsw vpmaxsd vpmaxsq', _ew_fn(lambda ew: simd.minmax(ew, True, True)))
_reg('vpmaxub vpmaxuw vpmaxud vpmaxuq', _ew_fn(lambda ew: simd.minmax(ew, False, True)))
_reg('vpabsb vpabsw vpabsd vpabsq', _ew_unary(lambda ew: lambda x: simd.absolute(x, ew)))
_reg('vpavgb vpavgw', _ew_fn(simd.average))
for _n, _s, _sub in (('vpadds', True, False), ('vpaddus', False, False), ('vpsubs', True, True),
                     ('vpsubus', False, True)):
    _reg(_n + 'b ' + _n + 'w', _ew_fn(lambda ew, _s=_s, _sub=_sub: simd.saturating(ew, _s, _sub)))
_reg('vpmullw vpmulld vpmullq', _ew_fn(simd.mul_low))
_reg('vpmuludq', elementwise(simd.mul_wide(False)))
_reg('vpternlogd vpternlogq', ternlog)
_reg('vpcmpeqb vpcmpeqw vpcmpeqd vpcmpeqq', compare(lambda x, y, ew, imm: bv.eq(x, y, ew)))
_reg('vpcmpgtb vpcmpgtw vpcmpgtd vpcmpgtq', compare(lambda x, y, ew, imm: bv.slt(y, x, ew)))
_reg('vpcmpb vpcmpw vpcmpd vpcmpq', compare(_cmp_imm(True)))
_reg('vpcmpub vpcmpuw vpcmpud vpcmpuq', compare(_cmp_imm(False)))
_reg('vptestmb vptestmw vptestmd vptestmq', compare(lambda x, y, ew, imm: bv.bnot(bv.eq(bv.and_(x, y, ew), 0, ew))))
_reg('vptestnmb vptestnmw vptestnmd vptestnmq', compare(lambda x, y, ew, imm: bv.eq(bv.and_(x, y, ew), 0, ew)))
_reg('vpmovm2b vpmovm2w vpmovm2d vpmovm2q', pmovm2)
_reg('vpmovb2m vpmovw2m vpmovd2m vpmovq2m', pmov2m)
_reg('vpblendmb vpblendmw vpblendmd vpblendmq vblendmps vblendmpd', blendm)
_reg('vpshufb', whole(lambda a, b, imm, w: simd.shuffle_bytes(a, b, w)))
_reg('vpshufd', _pshuf('d'))
_reg('vpshufhw', _pshuf('hw'))
_reg('vpshuflw', _pshuf('lw'))
_reg('vpermd vpermq vpermb vpermw', lambda m, i: (vpermq_imm if i.ops[-1].kind == 'imm' else vperm)(m, i))
_reg('vpermilps', vpermil)
_reg('vpermi2d vpermi2q vpermi2b vpermi2w', permute2(True))
_reg('vpermt2d vpermt2q vpermt2b vpermt2w', permute2(False))
_reg('vshufi32x4 vshufi64x2', shuffle128)
_reg('valignd valignq', align)
_reg('vpalignr', whole(lambda a, b, imm, w: simd.align_right(a, b, imm, w)))
for _s, _lw in (('bw', 8), ('wd', 16), ('dq', 32), ('qdq', 64)):
    MODELS['vpunpckl' + _s] = whole(lambda a, b, imm, w, _lw=_lw: sse.unpack_lanes(_lw, False)(a, b, w))
    MODELS['vpunpckh' + _s] = whole(lambda a, b, imm, w, _lw=_lw: sse.unpack_lanes(_lw, True)(a, b, w))
for _n, _lw, _hi in (('vunpcklps', 32, False), ('vunpckhps', 32, True), ('vunpcklpd', 64, False),
                     ('vunpckhpd', 64, True)):
    MODELS[_n] = whole(lambda a, b, imm, w, _lw=_lw, _hi=_hi: sse.unpack_lanes(_lw, _hi)(a, b, w))
_reg('vpacksswb', whole(lambda a, b, imm, w: simd.pack(16, True)(a, b, w)))
_reg('vpackuswb', whole(lambda a, b, imm, w: simd.pack(16, False)(a, b, w)))
_reg('vpackssdw', whole(lambda a, b, imm, w: simd.pack(32, True)(a, b, w)))
_reg('vpackusdw', whole(lambda a, b, imm, w: simd.pack(32, False)(a, b, w)))
_reg('vshufps', _shufp(True))
_reg('vshufpd', _shufp(False))
_reg('vpcompressd vpcompressq', compress)
_reg('vpexpandd vpexpandq', expand)
for _n, _lw in (('vpbroadcastb', 8), ('vpbroadcastw', 16), ('vpbroadcastd', 32), ('vpbroadcastq', 64),
                ('vbroadcasti32x2', 64), ('vbroadcasti32x4', 128), ('vbroadcasti64x2', 128),
                ('vbroadcasti32x8', 256), ('vbroadcasti64x4', 256), ('vbroadcastss', 32), ('vbroadcastsd', 64)):
    MODELS[_n] = broadcast(_lw)
_reg('vinserti32x4 vinserti64x2 vinsertf32x4 vinsertf64x2', insert_block(128))
_reg('vinserti32x8 vinserti64x4 vinsertf32x8 vinsertf64x4', insert_block(256))
_reg('vextracti32x4 vextracti64x2 vextractf32x4 vextractf64x2', extract_block(128))
_reg('vextracti32x8 vextracti64x4 vextractf32x8 vextractf64x4', extract_block(256))
_reg('vpinsrb', insert(8))
_reg('vpinsrw', insert(16))
_reg('vpinsrd', insert(32))
_reg('vpinsrq', insert(64))
_reg('vpextrb', simd.extract(8))
_reg('vpextrw', simd.extract(16))
_reg('vpextrd', simd.extract(32))
_reg('vpextrq', simd.extract(64))
for _k, _fw in (('bw', 8), ('bd', 8), ('bq', 8), ('wd', 16), ('wq', 16), ('dq', 32)):
    MODELS['vpmovzx' + _k] = extend(_fw, False)
    MODELS['vpmovsx' + _k] = extend(_fw, True)
for _k, _fw in (('qb', 64), ('qw', 64), ('qd', 64), ('db', 32), ('dw', 32), ('wb', 16)):
    MODELS['vpmov' + _k] = narrow(_fw)
for _n, _c in (('vpsrl', 'r'), ('vpsra', 'a'), ('vpsll', 'l')):
    for _s in 'wdq':
        MODELS[_n + _s] = lambda m, i, _c=_c: (shift_imm(_c) if i.ops[-1].kind == 'imm' else shift_xmm(_c))(m, i)
    for _s in 'wdq':
        MODELS[_n + 'v' + _s] = shift_var(_c)
_reg('vprold vprolq', rotate(True))
_reg('vprord vprorq', rotate(False))
_reg('vpslldq', byte_shift(True))
_reg('vpsrldq', byte_shift(False))
MODELS.update(opmask.MODELS)
_reg('vbroadcasti128', simd.broadcast(128))
