# SPDX-License-Identifier: BSD-3-Clause
"""The independent specification, in z3, and the tables it is applied to.

Each operation of the model is stated here from the spec's rules
(DECISIONS.md §2 and §3, docs/api-contract.md), never from the code:

  fp compares   z3's FloatingPoint theory on fpBVToFP of the pattern
                (fpEQ/fpLT/fpLE are false on any NaN, quiet or signalling,
                and take -0 == +0); un = isNaN(a) or isNaN(b); the
                unordered ueq/ult/ule are un or the ordered relation
  classify      the class bits from fpIsZero/fpIsSubnormal/fpIsNormal/
                fpIsInf/fpIsNaN, sign and the sNaN bit (mantissa MSB clear)
                from the pattern, finite = neither inf nor NaN
  integers      unsigned and eq/neq on all 32 bits; signed: the spec's bias
                (x & (2^(w-1)-1)) | ((x >> (w-1)) == 0) << (w-1), then unsigned
  fields        REP(t): all ones in the row's field when t holds; the _t gate
                passes the value when pred bit 0 is set, else 0
  bit planes    movfsv: FS_j bit k = vector bit 8k+j; movvfs: vector bit
                8k+j = FS_j bit k; borfs the OR of eight vbools, bnorfs its
                complement; extbi, injbi8 and bitkill as §2 writes them

The leaves come from include/q7pred_leaves.def and their operands from
include/q7pred_shapes.def, read through the C preprocessor, and the C types
of every operation from <q7pred.h>'s prototypes, so a new row is a new
obligation with no edit here. A leaf's obligation is its row's semantics
text evaluated over these definitions.
"""
import re
import subprocess

import z3

# ---- the tables ---------------------------------------------------------

class Leaf:
    def __init__(self, suffix, shape, field_bits, operand_bits, family, provenance, semantics):
        self.suffix, self.shape, self.family, self.provenance = suffix, shape, family, provenance
        self.field_bits, self.operand_bits, self.semantics = int(field_bits), int(operand_bits), semantics
        self.name = suffix
        self.symbol = 'module__xdref_' + suffix


def _cpp(cc, srcdir, text):
    r = subprocess.run([cc, '-E', '-P', '-x', 'c', '-I', srcdir + '/include', '-'], input=text,
                       capture_output=True, text=True, check=True)
    return r.stdout


def leaves(cc, srcdir):
    out = _cpp(cc, srcdir, '#define LEAF(s, sh, fb, ob, fam, prov, sem) @@ s|sh|fb|ob|fam|prov|#sem\n'
                           '#include "q7pred_leaves.def"\n')
    rows = []
    for line in out.split('@@')[1:]:
        parts = [p.strip() for p in line.strip().split('|', 6)]
        parts[6] = parts[6].strip('"')
        rows.append(Leaf(*parts))
    return rows


def shapes(cc, srcdir):
    """shape -> [(direction, name, width class)] in ABI order."""
    out = _cpp(cc, srcdir, '#define IN(n, w, r) IN n w ;\n#define OUT(n, w, r) OUT n w ;\n'
                           '#define AUX(n, w, r) AUX n w ;\n#define SHAPE(x) @@ x Q7_OPERANDS_##x\n'
                           '#include "q7pred_shapes.def"\n')
    table = {}
    for chunk in out.split('@@')[1:]:
        words = chunk.replace(',', ' ').split()
        name, rest = words[0], ' '.join(words[1:])
        table[name] = [tuple(op.split()) for op in rest.split(';') if op.strip()]
    return table


def operations(cc, srcdir):
    """The model's operations, q7_<name> for each row of include/q7pred_ops.def."""
    out = _cpp(cc, srcdir, '#include "q7pred_ops.def"\n#define OP(name, ...) @@q7_##name\nQ7_OPERATIONS(OP)\n')
    return [w.strip().split()[0] for w in out.split('@@')[1:]]


def prototypes(cc, srcdir):
    """q7_<name> -> (return C type, [(C type, param name)]) from <q7pred.h>."""
    return parse_prototypes(_cpp(cc, srcdir, '#include "q7pred.h"\n'))


def parse_prototypes(out):
    """q7_<name> -> (return C type, [(C type, param name)]) of the
    declarations `RET q7_NAME(PARAMS);` in the text out."""
    protos = {}
    for m in re.finditer(r'([\w ]+?\**)\s*\b(q7_\w+)\s*\(([^()]*)\)\s*;', out.replace('\n', ' ')):
        ret = m.group(1).replace('__attribute__', '').split()[-1]
        params = []
        for p in m.group(3).split(','):
            p = p.strip()
            if p in ('', 'void'):
                continue
            pm = re.match(r'(.*?)\s*\b(\w+)\s*(\[\d+\])?$', p)
            if pm is None:  # not a plain declaration: no operation has such a parameter
                params = None
                break
            params.append(((pm.group(1) + ' ' + (pm.group(3) or '')).strip(), pm.group(2)))
        if params is not None:
            protos[m.group(2)] = (ret, params)
    return protos


# ---- the rules ----------------------------------------------------------

def ones(bits):
    """All ones in the low `bits` bits of a 32-bit word; 0 gives 0 and any
    width above 32 all 32 bits (docs/api-contract.md)."""
    bits = _u32(bits)
    return z3.If(bits == 0, z3.BitVecVal(0, 32),
                 z3.If(z3.UGE(bits, 32), z3.BitVecVal(0xffffffff, 32),
                       z3.LShR(z3.BitVecVal(0xffffffff, 32), 32 - bits)))


def _u32(x):
    return z3.BitVecVal(x, 32) if isinstance(x, int) else x


def _bit(x, i):
    return z3.Extract(i, i, x) == 1


FORMATS = {'f16': (16, z3.FPSort(5, 11)), 'f32': (32, z3.Float32())}


def _fp(fmt, x):
    return z3.fpBVToFP(x, FORMATS[fmt][1])


def _relations(fmt):
    def un(a, b):
        return z3.Or(z3.fpIsNaN(_fp(fmt, a)), z3.fpIsNaN(_fp(fmt, b)))

    def ordered(rel):
        return lambda a, b: rel(_fp(fmt, a), _fp(fmt, b))

    def unordered(rel):
        return lambda a, b: z3.Or(un(a, b), rel(_fp(fmt, a), _fp(fmt, b)))
    return {fmt + '_un': un,
            fmt + '_eq': ordered(z3.fpEQ), fmt + '_lt': ordered(z3.fpLT), fmt + '_le': ordered(z3.fpLEQ),
            fmt + '_ueq': unordered(z3.fpEQ), fmt + '_ult': unordered(z3.fpLT), fmt + '_ule': unordered(z3.fpLEQ)}


def _classify(fmt):
    bits, sort = FORMATS[fmt]
    frac = sort.sbits() - 1

    def classify(x):
        v = _fp(fmt, x)
        nan, inf = z3.fpIsNaN(v), z3.fpIsInf(v)
        classes = [_bit(x, bits - 1), z3.fpIsZero(v), z3.fpIsSubnormal(v), z3.fpIsNormal(v), inf, nan,
                   z3.And(nan, z3.Not(_bit(x, frac - 1))), z3.Not(z3.Or(inf, nan))]
        mask = z3.BitVecVal(0, 8)
        for k, c in enumerate(classes):
            mask = mask | z3.If(c, z3.BitVecVal(1 << k, 8), z3.BitVecVal(0, 8))
        return mask
    return classify


def sign_bias(x, w):
    """The spec's bias, for w in 1..32; 0 gives 0, above 32 gives x."""
    w = _u32(w)
    low = z3.LShR(z3.BitVecVal(0xffffffff, 32), 33 - w)
    top = z3.If(z3.LShR(x, w - 1) == 0, z3.BitVecVal(1, 32) << (w - 1), z3.BitVecVal(0, 32))
    return z3.If(w == 0, z3.BitVecVal(0, 32), z3.If(z3.UGT(w, 32), x, (x & low) | top))


def _signed(rel, w):
    return lambda a, b: rel(sign_bias(a, w), sign_bias(b, w))


def _extbi(val, bit, lane_bits):
    lane = _u32(lane_bits)
    i = z3.URem(bit, lane)  # unused when lane is 0
    return z3.And(lane != 0, z3.ULT(i, 32), z3.Extract(0, 0, z3.LShR(val, i)) == 1)


def _injbi8(base, pred, bit):
    m = z3.BitVecVal(1, 32) << (bit & 7)
    return (base & ~m) | z3.If(_bit(pred, 0), m, z3.BitVecVal(0, 32))


def _borfs(m):
    acc = m[0]
    for x in m[1:]:
        acc = acc | x
    return acc


def _movfsv(vec, fs):
    for j in range(8):
        fs[j] = z3.Concat(*[z3.Extract(8 * k + j, 8 * k + j, vec) for k in reversed(range(64))])


def _movvfs(fs, vec):
    vec[0] = z3.Concat(*[z3.Extract(n // 8, n // 8, fs[n % 8]) for n in reversed(range(512))])


def _b32(c):
    return z3.If(c, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))


OPS = {
    'eq': lambda a, b: a == b, 'neq': lambda a, b: a != b,
    'ltu': z3.ULT, 'leu': z3.ULE,
    'sign_bias': sign_bias,
    'f16_classify': _classify('f16'), 'f32_classify': _classify('f32'),
    'field': lambda t, bits: z3.If(t, ones(bits), z3.BitVecVal(0, 32)),
    'gate': lambda pred, value: z3.If(_bit(pred, 0), value, z3.BitVecVal(0, 32)),
    'andb': lambda a, b: a & b, 'orb': lambda a, b: a | b, 'xorb': lambda a, b: a ^ b,
    'andnotb': lambda a, b: a & ~b, 'ornotb': lambda a, b: a | ~b, 'notb': lambda a: ~a,
    'notb1': lambda a: ~a & 1, 'andnotb1': lambda a, b: a & ~b & 1, 'ornotb1': lambda a, b: (a | ~b) & 1,
    'bitkillt': lambda pred, bits: z3.If(_bit(pred, 0), z3.BitVecVal(0, 32), ones(bits)),
    'bitkillf': lambda pred, bits: z3.If(_bit(pred, 0), ones(bits), z3.BitVecVal(0, 32)),
    'fsltu': lambda a, b: _b32(z3.ULT(a, b)),
    'borfs': _borfs, 'bnorfs': lambda m: ~_borfs(m),
    'extbi': _extbi, 'injbi8': _injbi8,
    'movfsv': _movfsv, 'movvfs': _movvfs,
}
for _w in (8, 16, 32):
    OPS['lt_i%d' % _w] = _signed(z3.ULT, _w)
    OPS['le_i%d' % _w] = _signed(z3.ULE, _w)
for _f in FORMATS:
    OPS.update(_relations(_f))


# ---- C types at a call ------------------------------------------------

C_BITS = {'_Bool': 1, 'bool': 1, 'uint8_t': 8, 'uint16_t': 16, 'uint32_t': 32, 'unsigned': 32,
          'q7_vbool': 64, 'uint64_t': 64}


def to_c(ctype, x):
    """A value converted to a parameter of C type ctype (C's conversions)."""
    if '*' in ctype or '[' in ctype:
        return x
    if isinstance(x, int):
        x = z3.BitVecVal(x, 32)
    bits = C_BITS[ctype]
    if bits == 1:
        return x if z3.is_bool(x) else x != 0
    if z3.is_bool(x):
        x = z3.If(x, z3.BitVecVal(1, bits), z3.BitVecVal(0, bits))
    if x.size() > bits:
        return z3.Extract(bits - 1, 0, x)
    return z3.ZeroExt(bits - x.size(), x) if x.size() < bits else x


def from_c(ctype, x):
    """A C return value as z3: _Bool stays a Bool, integers bit-vectors of their width."""
    if ctype == 'void':
        return None
    bits = C_BITS[ctype]
    if bits == 1:
        return x if z3.is_bool(x) else x != 0
    if z3.is_bool(x):
        return z3.If(x, z3.BitVecVal(1, bits), z3.BitVecVal(0, bits))
    return to_c(ctype, x)


def op_spec(protos, name):
    """The specification of q7_<name> as a function of C-typed z3 values."""
    short = name[3:]
    if short not in OPS:
        raise KeyError('no specification for %s' % name)
    ret, params = protos[name]

    def call(*args):
        if len(args) != len(params):
            raise TypeError('%s takes %d arguments' % (name, len(params)))
        return from_c(ret, OPS[short](*[to_c(t, a) for (t, _), a in zip(params, args)]))
    return call


def leaf_expected(protos, leaf, inputs, outputs):
    """The value the row's semantics gives: evaluates the row's text with its
    operand names bound to `inputs`; a void operation fills `outputs`."""
    env = {k: v for k, v in inputs.items()}
    env.update(outputs)
    for name in protos:
        if name[3:] in OPS:
            env[name] = op_spec(protos, name)
    env['REP'] = lambda t: OPS['field'](to_c('_Bool', t), leaf.field_bits)
    text = leaf.semantics.replace('&', '')
    if re.search(r'[^\w\s(),]', text):
        raise ValueError('semantics of %s is not a call expression: %s' % (leaf.name, leaf.semantics))
    return eval(text, {'__builtins__': {}}, env)
