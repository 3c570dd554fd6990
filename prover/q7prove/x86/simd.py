# SPDX-License-Identifier: BSD-3-Clause
"""The SSE4.1, SSE4.2, SSSE3, AVX and AVX2 integer, blend, permute,
broadcast, insert and extract instructions, and F16C, after the Intel SDM
volume 2, in their legacy (xmm, the destination a source too, a 16-byte
memory operand 16-aligned) and VEX (v..., 128 and 256 bits, bits 511..
above it zeroed) forms. The element functions below (values in, value
out) are the AVX-512 forms' too (x86/avx512.py):

  integer      pminsb pminsw pminsd pminub pminuw pminud and pmax*, pabsb
               pabsw pabsd, pavgb pavgw, pmullw pmulld pmuludq pmuldq,
               paddsb paddsw paddusb paddusw psubsb psubsw psubusb psubusw,
               pcmpgtq (SSE4.2: in sse.py), ptest
  pack/extend  packuswb packsswb packssdw packusdw (saturating),
               pmovzx* pmovsx* (bw bd bq wd wq dq)
  shuffles     pshufb palignr pblendw pblendd blendps blendpd pblendvb
               blendvps blendvpd, vpermq vpermd vpermps vpermpd vperm2i128
               vperm2f128 vpermilps vpermilpd
  moves        pinsrb pinsrd pinsrq pextrb pextrd pextrq extractps,
               vpbroadcastb/w/d/q vbroadcastss vbroadcastsd vbroadcasti128
               vbroadcastf128, vinserti128 vinsertf128 vextracti128
               vextractf128, vpsllv* vpsrlv* vpsrav*, vpmaskmovd/q
               vmaskmovps/pd (a masked-off element neither read nor written; whether
               it may fault is a processor's choice)
  SSE4.2       crc32 (pcmpgtq is in sse.py; the string compares
               pcmp[ei]str[im] are not modelled)
  F16C         vcvtph2ps (exact), vcvtps2ph (rounded as its immediate says;
               MXCSR's is the ABI's nearest-even), NaNs quieted with their
               payload's top bits kept
"""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.state import as_number
from q7prove.x86.scalar_fp import abi_mxcsr
from q7prove.x86.sse import join, lanes

# ---- element functions: values in, value out ----------------------------------------


def each(fn, ew):
    """fn(x, y) on every ew-bit element of two w-bit values."""
    return lambda a, b, w: join([fn(x, y) for x, y in zip(lanes(a, ew, w), lanes(b, ew, w))], ew)


def minmax(ew, signed, take_max):
    less = bv.slt if signed else bv.ult
    return lambda x, y: bv.ite(less(x, y, ew), y, x, ew) if take_max else bv.ite(less(y, x, ew), y, x, ew)


def absolute(x, ew):
    return bv.ite(bv.slt(x, 0, ew), bv.neg(x, ew), x, ew)


def average(ew):
    return lambda x, y: bv.extract(bv.add(bv.add(bv.zext(x, ew, ew + 1), bv.zext(y, ew, ew + 1), ew + 1), 1, ew + 1),
                                   ew, 1, ew + 1)


def saturating(ew, signed, sub):
    """padds/paddus/psubs/psubus: the exact sum or difference, clamped to the element's range."""
    ext = bv.sext if signed else bv.zext
    lo, hi = ((-(1 << (ew - 1))) & bv.mask(ew + 1), (1 << (ew - 1)) - 1) if signed else (0, bv.mask(ew))

    def f(x, y):
        r = (bv.sub if sub else bv.add)(ext(x, ew, ew + 1), ext(y, ew, ew + 1), ew + 1)
        if signed:
            r = bv.ite(bv.slt(r, lo, ew + 1), lo, bv.ite(bv.slt(hi, r, ew + 1), hi, r, ew + 1), ew + 1)
        elif sub:
            r = bv.ite(bv.bit(r, ew, ew + 1), 0, r, ew + 1)        # below 0: the borrow out
        else:
            r = bv.ite(bv.bit(r, ew, ew + 1), hi, r, ew + 1)       # past the top: the carry out
        return bv.extract(r, ew - 1, 0, ew + 1)
    return f


def mul_low(ew):
    return lambda x, y: bv.mul(x, y, ew)


def mul_wide(signed):
    """pmuludq/pmuldq: the low dwords of each quadword, multiplied to 64 bits."""
    ext = bv.sext if signed else bv.zext
    return lambda x, y: bv.mul(ext(bv.extract(x, 31, 0, 64), 32, 64), ext(bv.extract(y, 31, 0, 64), 32, 64), 64)


def saturate(x, fw, tw, signed_to):
    """A signed fw-bit element narrowed to tw bits, saturated to the signed
    or unsigned tw-bit range."""
    if signed_to:
        lo, hi = -(1 << (tw - 1)), (1 << (tw - 1)) - 1
    else:
        lo, hi = 0, (1 << tw) - 1
    lo_f, hi_f = lo & bv.mask(fw), hi & bv.mask(fw)
    r = bv.ite(bv.slt(x, lo_f, fw), lo_f, bv.ite(bv.slt(hi_f, x, fw), hi_f, x, fw), fw)
    return bv.extract(r, tw - 1, 0, fw)


def pack(fw, signed_to):
    """packsswb packuswb packssdw packusdw: per 128-bit lane, a's elements
    then b's, each saturated to half its width."""
    def lane(a, b, w=128):
        xs = [saturate(v, fw, fw // 2, signed_to) for v in lanes(a, fw, 128) + lanes(b, fw, 128)]
        return join(xs, fw // 2)
    return lambda a, b, w: join([lane(x, y) for x, y in zip(lanes(a, 128, w), lanes(b, 128, w))], 128)


def extend(x, xw, fw, tw, n, signed):
    """The low n fw-bit elements of the xw-bit x, each zero- or sign-extended to tw bits."""
    ext = bv.sext if signed else bv.zext
    return join([ext(v, fw, tw) for v in lanes(bv.extract(x, n * fw - 1, 0, xw), fw, n * fw)], tw)


def truncate(x, fw, tw, n):
    return join([bv.extract(v, tw - 1, 0, fw) for v in lanes(x, fw, n * fw)], tw)


def select(table, lw, idx, n):
    """Element idx (a number or a term, taken mod n) of n lw-bit elements."""
    idx = bv.fold(idx)
    els = lanes(table, lw, n * lw)
    bits = (n - 1).bit_length()
    if type(idx) is int:
        return els[idx % n]
    t = z3.Extract(bits - 1, 0, idx) if bits else None
    out = els[0]
    for k in range(1, n):
        out = bv.ite(t == k, els[k], out, lw)
    return out


def shuffle_bytes(a, idx, w):
    """pshufb: per 128-bit lane, byte j is a's byte idx[j] & 15, or 0 where idx[j] has bit 7."""
    out = []
    for la, li in zip(lanes(a, 128, w), lanes(idx, 128, w)):
        for c in lanes(li, 8, 128):
            out.append(bv.ite(bv.bit(c, 7, 8), 0, select(la, 8, bv.extract(c, 3, 0, 8), 16), 8))
    return join(out, 8)


def align_right(a, b, imm, w):
    """palignr: per 128-bit lane, (a:b) >> 8 imm bytes, the low 128 bits."""
    out = []
    for la, lb in zip(lanes(a, 128, w), lanes(b, 128, w)):
        both = bv.concat([(la, 128), (lb, 128)])
        out.append(0 if imm >= 32 else bv.extract(bv.lshr(both, 8 * imm, 256), 127, 0, 256))
    return join(out, 128)


def ternary(a, b, c, imm, w):
    """vpternlog: bit k of the result is bit (a_k b_k c_k) of imm."""
    terms = []
    for t in range(8):
        if imm >> t & 1:
            x = a if t & 4 else bv.not_(a, w)
            y = b if t & 2 else bv.not_(b, w)
            z = c if t & 1 else bv.not_(c, w)
            terms.append(bv.and_(bv.and_(x, y, w), z, w))
    r = 0
    for t in terms:
        r = bv.or_(r, t, w)
    return bv.fold(r) if type(r) is not int else r


def shift_each(kind, ew):
    """Per element by the element of the count vector: past the width, 0
    (logical) or the sign (arithmetic)."""
    def f(x, n):
        n = bv.fold(n)
        if type(n) is int:
            if kind == 'a':
                return bv.ashr(x, min(n, ew - 1), ew)
            return 0 if n >= ew else (bv.shl if kind == 'l' else bv.lshr)(x, n, ew)
        big = z3.UGE(bv.term(n, ew), ew)
        if kind == 'a':
            return z3.If(big, bv.term(x, ew) >> (ew - 1), bv.term(x, ew) >> bv.term(n, ew))
        sh = bv.term(x, ew) << bv.term(n, ew) if kind == 'l' else z3.LShR(bv.term(x, ew), bv.term(n, ew))
        return z3.If(big, z3.BitVecVal(0, ew), sh)
    return f


def shift_all(kind, ew, n):
    """Every element by one count n (a number or a 64-bit term)."""
    n = bv.fold(n)
    if type(n) is int:
        return lambda x: (bv.ashr(x, min(n, ew - 1), ew) if kind == 'a' else
                          0 if n >= ew else (bv.shl if kind == 'l' else bv.lshr)(x, n, ew))
    big = z3.UGE(bv.term(n, 64), ew)
    nl = z3.Extract(ew - 1, 0, bv.term(n, 64)) if ew < 64 else bv.term(n, 64)
    if kind == 'a':
        return lambda x: bv.term(x, ew) >> z3.If(big, z3.BitVecVal(ew - 1, ew), nl)
    if kind == 'l':
        return lambda x: z3.If(big, z3.BitVecVal(0, ew), bv.term(x, ew) << nl)
    return lambda x: z3.If(big, z3.BitVecVal(0, ew), z3.LShR(bv.term(x, ew), nl))


def rotate_each(left, ew, n):
    n = n % ew
    if n == 0:
        return lambda x: x
    if not left:
        n = ew - n
    return lambda x: bv.or_(bv.shl(x, n, ew), bv.lshr(x, ew - n, ew), ew)


def permute_imm4(x, imm, w, lw):
    """vpermq/vpermpd imm: in each 256 bits, element k is element imm[2k+1:2k]."""
    out = []
    for blk in lanes(x, 256, w):
        els = lanes(blk, lw, 256)
        out += [els[(imm >> (2 * k)) & 3] for k in range(4)]
    return join(out, lw)


def permute_var(table, idx, w, lw):
    """vpermd/vpermq/vpermb/vpermw (and vpermps/pd): element k is table's element idx[k] mod n."""
    n = w // lw
    return join([select(table, lw, i, n) for i in lanes(idx, lw, w)], lw)


def permute2(t1, idx, t2, w, lw):
    """vpermt2/vpermi2: element k from t1 or t2 (bit log2 n of idx[k]) at idx[k] mod n."""
    n = w // lw
    both = bv.concat([(t2, w), (t1, w)])
    return join([select(both, lw, i, 2 * n) for i in lanes(idx, lw, w)], lw)


def permil_imm(x, imm, w, lw):
    """vpermilps/pd imm: within each 128 bits (pd: imm bit per element)."""
    out = []
    for k, blk in enumerate(lanes(x, 128, w)):
        els = lanes(blk, lw, 128)
        if lw == 32:
            out += [els[(imm >> (2 * j)) & 3] for j in range(4)]
        else:
            out += [els[(imm >> (2 * k + j)) & 1] for j in range(2)]
    return join(out, lw)


def permil_var(x, ctl, w, lw):
    """vpermilps/pd by a vector: within each 128 bits, by bits 1..0 (ps) or bit 1 (pd)."""
    out = []
    for blk, cb in zip(lanes(x, 128, w), lanes(ctl, 128, w)):
        for c in lanes(cb, lw, 128):
            out.append(select(blk, lw, bv.extract(c, 1, 0, lw) if lw == 32 else bv.extract(c, 1, 1, lw), 128 // lw))
    return join(out, lw)


def blend_imm(a, b, imm, w, lw):
    """pblendw (the 8 bits again in each 128), pblendd, blendps, blendpd: b's element where imm's bit is set."""
    xs, ys = lanes(a, lw, w), lanes(b, lw, w)
    per = 128 // lw if lw == 16 else len(xs)
    return join([y if imm >> (k % per if lw == 16 else k) & 1 else x for k, (x, y) in enumerate(zip(xs, ys))], lw)


def blend_var(a, b, sel, w, lw):
    """pblendvb/blendvps/blendvpd: b's element where sel's element has its top bit."""
    return join([bv.ite(bv.bit(s, lw - 1, lw), y, x, lw)
                 for x, y, s in zip(lanes(a, lw, w), lanes(b, lw, w), lanes(sel, lw, w))], lw)


def shuffle_128(a, b, imm, w):
    """vshufi32x4/vshufi64x2 (vshuff*): the low half of the result's 128-bit
    blocks from a, the high half from b, each picked by imm."""
    xa, xb = lanes(a, 128, w), lanes(b, 128, w)
    n = w // 128
    bits = 2 if n == 4 else 1
    out = []
    for k in range(n):
        src = xa if k < n // 2 else xb
        out.append(src[(imm >> (bits * k)) & (n - 1)])
    return join(out, 128)


def half_to_single(h):
    """A binary16 as binary32: exact; a NaN quieted, its payload's bits kept."""
    f = z3.fpBVToFP(bv.term(h, 16), z3.FPSort(5, 11))
    conv = z3.fpToIEEEBV(z3.fpToFP(z3.RNE(), f, z3.Float32()))
    return bv.fold(z3.If(z3.fpIsNaN(f), bv.term(_quiet_nan16(h, 16, 32), 32), conv))


ROUNDING = [z3.RNE(), z3.RTN(), z3.RTP(), z3.RTZ()]


def single_to_half(x, imm):
    """A binary32 as binary16, rounded as imm says (bit 2: MXCSR's, the
    ABI's nearest-even; else bits 1..0); a NaN quieted, its payload's top bits kept."""
    rm = ROUNDING[0] if imm & 4 else ROUNDING[imm & 3]
    f = z3.fpBVToFP(bv.term(x, 32), z3.Float32())
    conv = z3.fpToIEEEBV(z3.fpToFP(rm, f, z3.FPSort(5, 11)))
    return bv.fold(z3.If(z3.fpIsNaN(f), bv.term(_quiet_nan16(x, 32, 16), 16), conv))


def _quiet_nan16(x, w_from, w_to):
    frac = {16: 10, 32: 23, 64: 52}
    ff, ft = frac[w_from], frac[w_to]
    sign = bv.extract(x, w_from - 1, w_from - 1, w_from)
    fr = bv.extract(x, ff - 1, 0, w_from)
    fr = bv.shl(bv.zext(fr, ff, ft), ft - ff, ft) if ft > ff else bv.extract(fr, ff - 1, ff - ft, ff)
    fr = bv.or_(fr, 1 << (ft - 1), ft)
    return bv.concat([(sign, 1), (bv.mask(w_to - ft - 1), w_to - ft - 1), (fr, ft)])


# ---- legacy and VEX forms ------------------------------------------------------------

def _vex(i):
    return i.mnemonic.startswith('v')


def _read(m, i, op, legacy_align=True):
    """An operand's value; a legacy 16-byte memory operand must be 16-aligned."""
    if op.kind == 'mem' and not _vex(i) and op.size == 16 and legacy_align:
        m.aligned(m.ea(op), 16)
    return m.get(op)


def _two(m, i):
    """(destination, first source, second source, width): a legacy form's
    destination is its first source; an immediate is left for the caller."""
    ops = [o for o in i.ops if o.kind != 'imm']
    d = ops[0]
    srcs = ops[1:] if _vex(i) else ops
    return d, _read(m, i, srcs[0]), _read(m, i, srcs[-1]), 8 * d.size


def binary(fn):
    """fn(a, b, w) of the two sources."""
    def op(m, i):
        d, a, b, w = _two(m, i)
        m.put(d, fn(a, b, w), _vex(i))
    return op


def binary_imm(fn):
    def op(m, i):
        d, a, b, w = _two(m, i)
        m.put(d, fn(a, b, i.ops[-1].imm & 0xff, w), _vex(i))
    return op


def ptest(m, i):
    a, b = _read(m, i, i.ops[0]), _read(m, i, i.ops[1])
    w = 8 * i.ops[0].size
    m.set_flags(ZF=bv.eq(bv.and_(a, b, w), 0, w), CF=bv.eq(bv.and_(bv.not_(a, w), b, w), 0, w),
                OF=False, SF=False, AF=False, PF=False)


def pmovx(signed, fw, tw):
    def op(m, i):
        d, s = i.ops
        w = 8 * d.size
        n = w // tw
        x = m.get(s)          # a memory operand is the n elements read (no alignment required)
        m.put(d, extend(x, 8 * s.size, fw, tw, n, signed), _vex(i))
    return op


def blendv(lw):
    """pblendvb/blendvps/blendvpd xmm0 implied (legacy), or the fourth register (VEX)."""
    def op(m, i):
        if _vex(i):
            d, a, b, s = i.ops
            av, bv_, sel = m.get(a), m.get(b), m.get(s)
        else:
            d, b = i.ops[0], i.ops[1]
            av, bv_, sel = m.get(d), _read(m, i, b), m.s.reg('xmm0')
        w = 8 * d.size
        m.put(d, blend_var(av, bv_, sel, w, lw), _vex(i))
    return op


def insert(lw):
    """pinsrb/d/q: element imm of the destination (or the VEX first source) from a register's or memory's low bits."""
    def op(m, i):
        d = i.ops[0]
        base = m.get(i.ops[1]) if _vex(i) else m.get(d)
        s, c = i.ops[-2], i.ops[-1]
        v = bv.extract(as_number(m.get(s), 8 * s.size), lw - 1, 0, 8 * s.size)
        els = lanes(base, lw, 128)
        els[c.imm % (128 // lw)] = v
        m.put(d, join(els, lw), _vex(i))
    return op


def extract(lw):
    """pextrb/w/d/q, extractps: element imm to memory, or zero-extended into a register."""
    def op(m, i):
        d, s, c = i.ops
        v = lanes(m.get(s), lw, 128)[c.imm % (128 // lw)]
        m.put(d, v if d.kind == 'mem' else bv.zext(v, lw, 8 * d.size))
    return op


def broadcast(lw):
    """vpbroadcastb/w/d/q, vbroadcastss/sd, vbroadcasti128/f128: the source's low lw bits everywhere."""
    def op(m, i):
        d, s = i.ops
        w = 8 * d.size
        v = bv.extract(as_number(m.get(s), 8 * s.size), lw - 1, 0, 8 * s.size)
        m.put(d, join([v] * (w // lw), lw), True)
    return op


def insert128(m, i):
    """vinserti128/vinsertf128: the first source with 128 bits at imm bit 0 replaced."""
    d, a, b, c = i.ops
    blocks = lanes(m.get(a), 128, 256)
    blocks[c.imm & 1] = m.get(b)
    m.put(d, join(blocks, 128), True)


def extract128(m, i):
    d, s, c = i.ops
    v = lanes(m.get(s), 128, 256)[c.imm & 1]
    m.put(d, v, True)


def perm2x128(m, i):
    """vperm2i128/vperm2f128: each half of the result is one of the four
    halves of the sources (imm bits 1..0, 5..4), or 0 (bits 3, 7)."""
    d, a, b, c = i.ops
    halves = lanes(m.get(a), 128, 256) + lanes(m.get(b), 128, 256)
    imm = c.imm
    lo = 0 if imm & 8 else halves[imm & 3]
    hi = 0 if imm & 0x80 else halves[(imm >> 4) & 3]
    m.put(d, join([lo, hi], 128), True)


def vpermq_imm(lw):
    def op(m, i):
        d, s, c = i.ops
        m.put(d, permute_imm4(m.get(s), c.imm, 256, lw), True)
    return op


def vperm_var(lw):
    """vpermd/vpermps: vpermd d, idx, table."""
    def op(m, i):
        d, idx, t = i.ops
        w = 8 * d.size
        m.put(d, permute_var(m.get(t), m.get(idx), w, lw), True)
    return op


def vpermil(lw):
    def op(m, i):
        d = i.ops[0]
        w = 8 * d.size
        if i.ops[-1].kind == 'imm':
            m.put(d, permil_imm(m.get(i.ops[1]), i.ops[-1].imm, w, lw), True)
        else:
            m.put(d, permil_var(m.get(i.ops[1]), m.get(i.ops[2]), w, lw), True)
    return op


def vshift_var(kind, ew):
    def op(m, i):
        d, a, b = i.ops
        w = 8 * d.size
        f = shift_each(kind, ew)
        m.put(d, join([f(x, n) for x, n in zip(lanes(m.get(a), ew, w), lanes(m.get(b), ew, w))], ew), True)
    return op


def maskmov(lw):
    """vpmaskmovd/q, vmaskmovps/pd: a load (d, mask, mem) reads the elements
    whose mask element has its top bit, the others 0; a store (mem, mask,
    src) writes only those. Whether an element the mask leaves out can
    fault the AMD APM leaves to the implementation (Intel's SDM says it
    cannot): a processor's choice, so a proof holds only where every
    element's address could be read."""
    def op(m, i):
        d, sel, s = i.ops
        w = 8 * (d.size if d.kind == 'reg' else s.size)
        bits = [bv.fold(bv.bit(x, lw - 1, lw)) for x in lanes(m.get(sel), lw, w)]
        touch = m.choice(0, 'may fault on an element its mask leaves out (the AMD APM leaves it to the '
                            'implementation)')
        if d.kind == 'reg':
            addr = m.ea(s)
            for k, b in enumerate(bits):
                m.reach_if(bv.band(bv.bnot(b), touch), m.offset(addr, k * lw // 8), lw // 8)
            els = [m.load_if(b, m.offset(addr, k * lw // 8), lw // 8) for k, b in enumerate(bits)]
            m.put(d, join([bv.ite(b, e, 0, lw) for b, e in zip(bits, els)], lw), True)
        else:
            addr = m.ea(d)
            for k, (b, v) in enumerate(zip(bits, lanes(m.get(s), lw, w))):
                m.reach_if(bv.band(bv.bnot(b), touch), m.offset(addr, k * lw // 8), lw // 8)
                m.store_if(b, m.offset(addr, k * lw // 8), lw // 8, v)
    return op


CASTAGNOLI = 0x82f63b78     # the CRC-32C polynomial, bit-reflected


def crc32(m, i):
    """crc32 (SSE4.2): the CRC-32C of the source's bytes, least significant
    bit first, onto the destination's low 32 bits; the result
    zero-extended; no flag changes."""
    d, s = i.ops
    n = 8 * s.size
    crc = bv.extract(as_number(m.get(d), 8 * d.size), 31, 0, 8 * d.size)
    data = as_number(m.get(s), n)
    for k in range(n):
        bit = bv.bxor(bv.bit(crc, 0, 32), bv.bit(data, k, n))
        crc = bv.xor(bv.lshr(crc, 1, 32), bv.ite(bit, CASTAGNOLI, 0, 32), 32)
    m.put(d, bv.zext(bv.fold(crc), 32, 8 * d.size))


def cvtph2ps(m, i):
    abi_mxcsr(m)    # an sNaN raises invalid: unmasked, a fault (#XM)
    d, s = i.ops
    w = 8 * d.size
    n = w // 32
    x = m.get(s)
    m.put(d, join([half_to_single(h) for h in lanes(bv.extract(x, 16 * n - 1, 0, 8 * s.size), 16, 16 * n)], 32), True)


def cvtps2ph(m, i):
    abi_mxcsr(m)    # immediate bit 2 rounds as MXCSR.RC; inexact, overflow... unmasked fault (#XM)
    d, s, c = i.ops
    w = 8 * s.size
    r = join([single_to_half(x, c.imm) for x in lanes(m.get(s), 32, w)], 16)
    if d.kind == 'mem':
        m.put(d, r)
    else:
        m.put(d, bv.zext(r, w // 2, 8 * d.size) if w // 2 < 8 * d.size else r, True)


# ---- registration: mnemonic -> model (legacy name and its VEX v-name)
MODELS = {}


def _both(name, fn):
    MODELS[name] = MODELS['v' + name] = fn


for _n, _ew, _s, _mx in (('pminsb', 8, True, False), ('pminsw', 16, True, False), ('pminsd', 32, True, False),
                         ('pminub', 8, False, False), ('pminuw', 16, False, False), ('pminud', 32, False, False),
                         ('pmaxsb', 8, True, True), ('pmaxsw', 16, True, True), ('pmaxsd', 32, True, True),
                         ('pmaxub', 8, False, True), ('pmaxuw', 16, False, True), ('pmaxud', 32, False, True)):
    _both(_n, binary(each(minmax(_ew, _s, _mx), _ew)))
for _n, _ew in (('pabsb', 8), ('pabsw', 16), ('pabsd', 32)):
    _both(_n, binary(lambda a, b, w, _ew=_ew: join([absolute(x, _ew) for x in lanes(b, _ew, w)], _ew)))
for _n, _ew, _s, _sub in (('paddsb', 8, True, False), ('paddsw', 16, True, False), ('paddusb', 8, False, False),
                          ('paddusw', 16, False, False), ('psubsb', 8, True, True), ('psubsw', 16, True, True),
                          ('psubusb', 8, False, True), ('psubusw', 16, False, True)):
    _both(_n, binary(each(saturating(_ew, _s, _sub), _ew)))
_both('pavgb', binary(each(average(8), 8)))
_both('pavgw', binary(each(average(16), 16)))
_both('pmullw', binary(each(mul_low(16), 16)))
_both('pmulld', binary(each(mul_low(32), 32)))
_both('pmuludq', binary(each(mul_wide(False), 64)))
_both('pmuldq', binary(each(mul_wide(True), 64)))
_both('ptest', ptest)
_both('packsswb', binary(pack(16, True)))
_both('packuswb', binary(pack(16, False)))
_both('packssdw', binary(pack(32, True)))
_both('packusdw', binary(pack(32, False)))
for _k, _fw, _tw in (('bw', 8, 16), ('bd', 8, 32), ('bq', 8, 64), ('wd', 16, 32), ('wq', 16, 64), ('dq', 32, 64)):
    _both('pmovzx' + _k, pmovx(False, _fw, _tw))
    _both('pmovsx' + _k, pmovx(True, _fw, _tw))
_both('pshufb', binary(shuffle_bytes))
_both('palignr', binary_imm(align_right))
_both('pblendw', binary_imm(lambda a, b, imm, w: blend_imm(a, b, imm, w, 16)))
_both('blendps', binary_imm(lambda a, b, imm, w: blend_imm(a, b, imm, w, 32)))
_both('blendpd', binary_imm(lambda a, b, imm, w: blend_imm(a, b, imm, w, 64)))
MODELS['vpblendd'] = binary_imm(lambda a, b, imm, w: blend_imm(a, b, imm, w, 32))
_both('pblendvb', blendv(8))
_both('blendvps', blendv(32))
_both('blendvpd', blendv(64))
_both('pinsrb', insert(8))
_both('pinsrd', insert(32))
_both('pinsrq', insert(64))
_both('pextrb', extract(8))
_both('pextrd', extract(32))
_both('pextrq', extract(64))
_both('extractps', extract(32))
for _n, _lw in (('vpbroadcastb', 8), ('vpbroadcastw', 16), ('vpbroadcastd', 32), ('vpbroadcastq', 64),
                ('vbroadcastss', 32), ('vbroadcastsd', 64), ('vbroadcasti128', 128), ('vbroadcastf128', 128)):
    MODELS[_n] = broadcast(_lw)
MODELS['vinserti128'] = MODELS['vinsertf128'] = insert128
MODELS['vextracti128'] = MODELS['vextractf128'] = extract128
MODELS['vperm2i128'] = MODELS['vperm2f128'] = perm2x128
MODELS['vpermq'] = vpermq_imm(64)
MODELS['vpermpd'] = vpermq_imm(64)
MODELS['vpermd'] = vperm_var(32)
MODELS['vpermps'] = vperm_var(32)
MODELS['vpermilps'] = vpermil(32)
MODELS['vpermilpd'] = vpermil(64)
for _k, _c in (('ll', 'l'), ('rl', 'r'), ('ra', 'a')):
    MODELS['vps%svd' % _k] = vshift_var(_c, 32)
    if _k != 'ra':
        MODELS['vps%svq' % _k] = vshift_var(_c, 64)
MODELS['vpmaskmovd'] = MODELS['vmaskmovps'] = maskmov(32)
MODELS['vpmaskmovq'] = MODELS['vmaskmovpd'] = maskmov(64)
MODELS['crc32'] = crc32
MODELS['vcvtph2ps'] = cvtph2ps
MODELS['vcvtps2ph'] = cvtps2ph
