# SPDX-License-Identifier: BSD-3-Clause
"""The machine's values: a bit-vector of a known width is a Python int
when it is known (0 <= x < 2^w) and a z3 term when it depends on an input;
a truth value is a Python bool or a z3 Bool. Every operation folds known
operands in Python, so a loop counter, an address or a shift count stays a
number and only what depends on an input becomes a term.

Anything else that stands for a 64-bit value (a pointer into an object,
memory_model.Ptr) says how it reads as a number through as_term().
Widths are the caller's: every function takes the width it works at.
"""
import z3


def mask(w):
    return (1 << w) - 1


def known(x):
    return type(x) is int


def term(x, w):
    """x as a z3 bit-vector of w bits."""
    if type(x) is int:
        return z3.BitVecVal(x, w)
    if hasattr(x, 'as_term'):
        t = x.as_term()
        return t if w == 64 else z3.Extract(w - 1, 0, t)
    return x


def boolean(c):
    """c as a z3 Bool."""
    return z3.BoolVal(c) if type(c) is bool else c


def fold(x):
    """x with its term simplified, an int when z3 finds it constant."""
    if type(x) is int or type(x) is bool or hasattr(x, 'as_term'):
        return x
    s = z3.simplify(x)
    if z3.is_bv_value(s):
        return s.as_long()
    if z3.is_true(s):
        return True
    if z3.is_false(s):
        return False
    return s


def signed(x, w):
    """A known value read as a w-bit two's complement number."""
    return x - (1 << w) if x >> (w - 1) else x


# ---- arithmetic and logic, at width w

def add(a, b, w):
    if type(a) is int and type(b) is int:
        return (a + b) & mask(w)
    if type(b) is int and b == 0:
        return a
    if type(a) is int and a == 0:
        return b
    return term(a, w) + term(b, w)


def sub(a, b, w):
    if type(a) is int and type(b) is int:
        return (a - b) & mask(w)
    if type(b) is int and b == 0:
        return a
    return term(a, w) - term(b, w)


def mul(a, b, w):
    if type(a) is int and type(b) is int:
        return (a * b) & mask(w)
    return term(a, w) * term(b, w)


def neg(a, w):
    return (-a) & mask(w) if type(a) is int else -term(a, w)


def not_(a, w):
    return a ^ mask(w) if type(a) is int else ~term(a, w)


def and_(a, b, w):
    if type(a) is int and type(b) is int:
        return a & b
    for x, y in ((a, b), (b, a)):
        if type(x) is int:
            if x == 0:
                return 0
            if x == mask(w):
                return y
    return term(a, w) & term(b, w)


def or_(a, b, w):
    if type(a) is int and type(b) is int:
        return a | b
    for x, y in ((a, b), (b, a)):
        if type(x) is int:
            if x == 0:
                return y
            if x == mask(w):
                return x
    return term(a, w) | term(b, w)


def xor(a, b, w):
    if type(a) is int and type(b) is int:
        return a ^ b
    for x, y in ((a, b), (b, a)):
        if type(x) is int and x == 0:
            return y
    if a is b:
        return 0
    return term(a, w) ^ term(b, w)


def _logical_shift(a, n, w, on_ints, on_terms):
    """A logical shift of a by n (an int or a w-bit term): by 0 it is a, at
    or past w it is 0 (both constants folded), else on_ints of two ints or
    on_terms of two w-bit terms."""
    if type(n) is int:
        if n == 0:
            return a
        if n >= w:
            return 0
        if type(a) is int:
            return on_ints(a, n)
    return on_terms(term(a, w), term(n, w))


def shl(a, n, w):
    """a << n; n at or past w gives 0."""
    return _logical_shift(a, n, w, lambda x, k: (x << k) & mask(w), lambda x, k: x << k)


def lshr(a, n, w):
    """a >> n with zeros shifted in; n at or past w gives 0."""
    return _logical_shift(a, n, w, lambda x, k: x >> k, z3.LShR)


def ashr(a, n, w):
    if type(n) is int:
        if n == 0:
            return a
        n = min(n, w - 1)
        if type(a) is int:
            return (signed(a, w) >> n) & mask(w)
    return term(a, w) >> term(n, w)


def udiv(a, b, w):
    if type(a) is int and type(b) is int and b:
        return a // b
    return z3.UDiv(term(a, w), term(b, w))


def urem(a, b, w):
    if type(a) is int and type(b) is int and b:
        return a % b
    return z3.URem(term(a, w), term(b, w))


def sdiv(a, b, w):
    """Truncating signed division, as x86 and C divide."""
    if type(a) is int and type(b) is int and b:
        q = abs(signed(a, w)) // abs(signed(b, w))
        return (q if (signed(a, w) < 0) == (signed(b, w) < 0) else -q) & mask(w)
    return term(a, w) / term(b, w)


def srem(a, b, w):
    """The remainder of sdiv: the dividend's sign."""
    if type(a) is int and type(b) is int and b:
        r = abs(signed(a, w)) % abs(signed(b, w))
        return (-r if signed(a, w) < 0 else r) & mask(w)
    return z3.SRem(term(a, w), term(b, w))


# ---- widths

def extract(x, hi, lo, w):
    """Bits hi..lo of the w-bit x."""
    if lo == 0 and hi == w - 1:
        return x.as_long() if z3.is_bv_value(x) else x     # a known piece of a concatenation: a number
    if type(x) is int:
        return (x >> lo) & mask(hi - lo + 1)
    t = term(x, w)
    if z3.is_app_of(t, z3.Z3_OP_CONCAT) and t.num_args() == 2:   # a part of the low or high piece alone
        kids = t.children()
        low = kids[-1].size()
        if hi < low:
            return extract(kids[1], hi, lo, low)
        if lo >= low:
            return extract(kids[0], hi - low, lo - low, w - low)
    if z3.is_app_of(t, z3.Z3_OP_ZERO_EXT):
        inner = t.children()[0]
        if lo >= inner.size():
            return 0
        if hi < inner.size():
            return extract(inner, hi, lo, inner.size())
    return z3.Extract(hi, lo, t)


def zext(x, w_from, w_to):
    if w_to == w_from or type(x) is int:
        return x
    return z3.ZeroExt(w_to - w_from, term(x, w_from))


def sext(x, w_from, w_to):
    if w_to == w_from:
        return x
    if type(x) is int:
        return signed(x, w_from) & mask(w_to)
    return z3.SignExt(w_to - w_from, term(x, w_from))


def concat(parts):
    """[(value, width)] from the most significant part down."""
    if all(type(v) is int for v, _ in parts):
        out = 0
        for v, w in parts:
            out = (out << w) | v
        return out
    merged = []   # neighbouring known parts joined
    for v, w in parts:
        if merged and type(v) is int and type(merged[-1][0]) is int:
            pv, pw = merged.pop()
            merged.append(((pv << w) | v, pw + w))
        else:
            merged.append((v, w))
    if len(merged) == 2 and type(merged[0][0]) is int and merged[0][0] == 0:
        return zext(merged[1][0], merged[1][1], merged[0][1] + merged[1][1])
    return z3.Concat(*[term(v, w) for v, w in merged]) if len(merged) > 1 else merged[0][0]


def ite(c, a, b, w):
    if type(c) is bool:
        return a if c else b
    if type(a) is int and type(b) is int and a == b:
        return a
    if a is b:
        return a
    return z3.If(c, term(a, w), term(b, w))


# ---- truth values

def variables(e):
    """e's uninterpreted constants (0-ary applications), by z3 id: one walk
    of the term's DAG, each node once."""
    seen, out, stack = set(), {}, [e]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out[t.get_id()] = t
        elif z3.is_app(t):
            stack.extend(t.children())
    return out


def choice(x, by_value, w):
    """The w-bit term that is by_value[v] where the variable x == v (the
    last value's where x takes none of them: whoever uses it states that
    x does not)."""
    items = sorted(by_value.items())
    out = z3.BitVecVal(items[-1][1], w)
    for v, got in reversed(items[:-1]):
        out = z3.If(x == v, z3.BitVecVal(got, w), out)
    return out


def eq(a, b, w):
    if type(a) is int and type(b) is int:
        return a == b
    return term(a, w) == term(b, w)


def ult(a, b, w):
    if type(a) is int and type(b) is int:
        return a < b
    return z3.ULT(term(a, w), term(b, w))


def slt(a, b, w):
    if type(a) is int and type(b) is int:
        return signed(a, w) < signed(b, w)
    return term(a, w) < term(b, w)


def bit(x, i, w):
    """Bit i of x as a truth value."""
    if type(x) is int:
        return bool((x >> i) & 1)
    return z3.Extract(i, i, term(x, w)) == 1


def from_bool(c, w=1):
    """1 or 0 at width w."""
    if type(c) is bool:
        return int(c)
    return z3.If(c, z3.BitVecVal(1, w), z3.BitVecVal(0, w))


def _connective(cs, unit, join):
    """The conjunction (unit True) or disjunction (unit False) of cs, each a
    Python bool or a z3 condition: the constants folded, join the rest."""
    out = []
    for c in cs:
        if c is (not unit):
            return not unit
        if c is not unit:
            out.append(c)
    return unit if not out else out[0] if len(out) == 1 else join(*out)


def band(*cs):
    return _connective(cs, True, z3.And)


def bor(*cs):
    return _connective(cs, False, z3.Or)


def bnot(c):
    return (not c) if type(c) is bool else z3.Not(c)


def bxor(a, b):
    if type(a) is bool and type(b) is bool:
        return a != b
    return z3.Xor(boolean(a), boolean(b))


def bite(c, a, b):
    """The truth value a where c holds, else b."""
    if type(c) is bool:
        return a if c else b
    if type(a) is bool and type(b) is bool and a == b:
        return a
    return z3.If(c, boolean(a), boolean(b))


def parity(x):
    """x86's PF: the low byte of x has an even number of set bits."""
    if type(x) is int:
        return bin(x & 0xff).count('1') % 2 == 0
    t = term(x, x.size())
    p = z3.Extract(0, 0, t)
    for i in range(1, 8):
        p = p ^ z3.Extract(i, i, t)
    return p == 0


def same(a, b):
    """Whether two values are the same without asking a solver."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if type(a) in (int, bool):
        return a == b
    if hasattr(a, 'same_as'):
        return a.same_as(b)
    return z3.is_expr(a) and a.eq(b)


def bounds(x, w):
    """(lo, hi): an unsigned range the w-bit x stays in, by its term's shape
    alone (constants, extensions, extracts, adds and multiplies that do not
    wrap, masks, shifts by constants, ifs); (0, 2^w - 1) where the shape
    says nothing. An over-approximation: whoever relies on it should state
    it as an obligation too."""
    if type(x) is int:
        return x, x
    t = term(x, w)
    return _bounds(t, {})


def _bounds(t, seen):
    key = t.get_id()
    if key in seen:
        return seen[key]
    w = t.size()
    full = (0, mask(w))
    out = full
    if z3.is_bv_value(t):
        out = (t.as_long(), t.as_long())
    elif z3.is_app(t):
        k = t.decl().kind()
        kids = t.children()
        b = lambda i: _bounds(kids[i], seen)
        if k == z3.Z3_OP_ZERO_EXT:
            out = b(0)
        elif k == z3.Z3_OP_SIGN_EXT:
            lo, hi = b(0)
            out = (lo, hi) if hi >> (kids[0].size() - 1) == 0 else full
        elif k == z3.Z3_OP_EXTRACT:
            hi_bit, lo_bit = t.params()
            lo, hi = b(0)
            out = (lo >> lo_bit, hi >> lo_bit) if hi >> (hi_bit + 1) == 0 else full
        elif k == z3.Z3_OP_CONCAT:
            out = (0, 0)
            for c in kids:
                lo, hi = _bounds(c, seen)
                out = ((out[0] << c.size()) | lo, (out[1] << c.size()) | hi)
        elif k == z3.Z3_OP_BADD:
            lo, hi = 0, 0
            for i in range(len(kids)):
                clo, chi = b(i)
                lo, hi = lo + clo, hi + chi
            out = (lo, hi) if hi <= mask(w) else full
        elif k == z3.Z3_OP_BMUL:
            lo, hi = 1, 1
            for i in range(len(kids)):
                clo, chi = b(i)
                lo, hi = lo * clo, hi * chi
            out = (lo, hi) if hi <= mask(w) else full
        elif k == z3.Z3_OP_BAND:
            out = (0, min(b(i)[1] for i in range(len(kids))))
        elif k == z3.Z3_OP_BOR or k == z3.Z3_OP_BXOR:
            top = max(b(i)[1] for i in range(len(kids)))
            out = (0, mask(top.bit_length()))
        elif k in (z3.Z3_OP_BSHL, z3.Z3_OP_BLSHR) and z3.is_bv_value(kids[1]):
            n = kids[1].as_long()
            lo, hi = b(0)
            if k == z3.Z3_OP_BLSHR:
                out = (lo >> n, hi >> n)
            elif n < w and hi << n <= mask(w):
                out = (lo << n, hi << n)
        elif k == z3.Z3_OP_ITE:
            (alo, ahi), (blo, bhi) = b(1), b(2)
            out = (min(alo, blo), max(ahi, bhi))
        elif k in (z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I) and z3.is_bv_value(kids[1]) and kids[1].as_long():
            out = (0, min(b(0)[1], kids[1].as_long() - 1))
    seen[key] = out
    return out
