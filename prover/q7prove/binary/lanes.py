# SPDX-License-Identifier: BSD-3-Clause
"""Like lanes, one question: the second solver asked once for every lane
whose claim is another lane's claim with the variables renamed.

A vector function's inputs are concatenations of one variable per lane
(binary/vecrun.py starts the run so: every value of an input is one value
of its lanes), so
lane k's claim mostly names lane k's variables. Where it still names other
lanes' (a term of the whole register a lane's extract was not reduced
through), three rewrites bring it to its own:
  - narrow(): an extract of a sum, product, difference, bitwise operation,
    if-then-else, concatenation or extension reads only the operands' bits
    it needs (bits h..l of a sum or product are those of the sum or
    product of the operands' bits h..0; of a product with m low zero
    bits, bits h-m..l-m of the product without them), which z3's
    simplifier leaves as it is; the simplifier then reduces each extract
    of a concatenation to its lane's variable;
  - strengthen(): the claim's disjuncts (what z3's simplifier makes of
    `path condition implies lane value`) that name other lanes and not
    lane k are dropped (a merge of a lane loop's paths leaves conditions
    on every lane). A disjunction with fewer disjuncts implies the whole
    one, so the question asked is stronger than the claim: its unsat
    still answers the claim; z3 must prove it before it is asked (else
    the lane is asked as it is);
  - _Localize: a subterm that names other lanes but whose value z3 finds
    the same whatever they are (a multiply spreading each predicate bit
    over its field reads the fields below it) is replaced by its value
    with them 0; each such equality is returned, and the second solver
    must find it valid too.

Lane k's claim c_k then stands for another lane's claim when
  - c_k names no lane variable of another lane, and the assumptions name
    no input at all (they are about where the memory objects are);
  - renaming x_k to x_0 for every input x (and putting the arguments of
    commutative operations in an order of their shape, not of z3's ids)
    turns c_k into a term structurally identical (the same z3 AST) to the
    renamed claim of the lane that stands for the class.
The renaming is then one-to-one on c_k's variables and fixes every
variable the assumptions name, so a model of the assumptions with c_k
false gives, with x_0 taking x_k's value, a model with the class's claim
false: the one question's unsat answers for every lane of the class.
A lane that fails either condition is asked alone, as it is.
What this trusts: z3's simplifier and substitution (the second solver is
asked about their output), and this module's rewrites.
"""
import time

import z3

from q7prove.smt import bitvec as bv, solver

_ARITH = {z3.Z3_OP_BADD: lambda a, b: a + b, z3.Z3_OP_BMUL: lambda a, b: a * b,
          z3.Z3_OP_BSUB: lambda a, b: a - b}
_BITWISE = {z3.Z3_OP_BAND: lambda a, b: a & b, z3.Z3_OP_BOR: lambda a, b: a | b,
            z3.Z3_OP_BXOR: lambda a, b: a ^ b}


def constants(e):
    """The ids of e's uninterpreted constants (0-ary applications)."""
    return set(bv.variables(e))


def _children(t):
    """t's arguments (z3's children() with fewer checks: this walk is the
    module's cost)."""
    ctx, a = t.ctx, t.as_ast()
    ref = ctx.ref()
    return [z3.z3._to_expr_ref(z3.Z3_get_app_arg(ref, a, i), ctx) for i in range(z3.Z3_get_app_num_args(ref, a))]


def _update(t, kids):
    """t with its arguments replaced (any arity: and, or, bvadd are n-ary)."""
    arr = (z3.Ast * len(kids))(*[k.as_ast() for k in kids])
    return z3.z3._to_expr_ref(z3.Z3_update_term(t.ctx.ref(), t.as_ast(), len(kids), arr), t.ctx)


class _Narrow:
    """e with every extract pushed down to the operand bits it reads. The
    memos hold each term they key by its id: a term freed could give its
    id to another."""

    def __init__(self):
        self.whole, self.part = {}, {}

    def term(self, t):
        hit = self.whole.get(t.get_id())
        if hit is not None:
            return hit[1]
        if not z3.is_app(t) or t.num_args() == 0:
            out = t
        elif t.decl().kind() == z3.Z3_OP_EXTRACT:
            h, l = t.params()
            out = self.bits(t.arg(0), h, l)
        else:
            kids = _children(t)
            new = [self.term(c) for c in kids]
            same = all(a.get_id() == b.get_id() for a, b in zip(kids, new))
            out = t if same else _update(t, new)
        self.whole[t.get_id()] = (t, out)
        return out

    def bits(self, t, h, l):
        """Bits h..l of t."""
        if h == t.size() - 1 and l == 0:
            return self.term(t)
        key = (t.get_id(), h, l)
        hit = self.part.get(key)
        if hit is None:
            hit = self.part[key] = (t, self._bits(t, h, l))
        return hit[1]

    def _bits(self, t, h, l):
        k = t.decl().kind() if z3.is_app(t) else None
        args = _children(t) if k is not None else []
        if k in _BITWISE:
            out = self.bits(args[0], h, l)
            for a in args[1:]:
                out = _BITWISE[k](out, self.bits(a, h, l))
            return out
        if k == z3.Z3_OP_BNOT:
            return ~self.bits(args[0], h, l)
        if k == z3.Z3_OP_ITE:
            return z3.If(self.term(args[0]), self.bits(args[1], h, l), self.bits(args[2], h, l))
        if k == z3.Z3_OP_BMUL:
            # x ++ 0 (m zero bits) times y is (x times y) ++ 0: bits h..l
            # (l >= m) are bits h-m..l-m of x times y
            for j, a in enumerate(args):
                m = _zero_tail(a)
                if 0 < m <= l:
                    rest = [self.bits(b, h - m, 0) for i, b in enumerate(args) if i != j]
                    out = self.bits(a, h, m)
                    for b in rest:
                        out = out * b
                    return out if l == m else z3.Extract(h - m, l - m, out)
        if k in _ARITH:
            low = [self.bits(a, h, 0) for a in args]
            out = low[0]
            for a in low[1:]:
                out = _ARITH[k](out, a)
            return out if l == 0 else z3.Extract(h, l, out)
        if k == z3.Z3_OP_BNEG:
            out = -self.bits(args[0], h, 0)
            return out if l == 0 else z3.Extract(h, l, out)
        if k == z3.Z3_OP_EXTRACT:
            _, l2 = t.params()
            return self.bits(args[0], h + l2, l + l2)
        if k == z3.Z3_OP_CONCAT:
            parts, at = [], 0
            for a in reversed(args):           # lowest part first
                lo, hi = at, at + a.size() - 1
                if hi >= l and lo <= h:
                    parts.append(self.bits(a, min(h, hi) - lo, max(l, lo) - lo))
                at = hi + 1
            return parts[0] if len(parts) == 1 else z3.Concat(*reversed(parts))
        if k == z3.Z3_OP_ZERO_EXT:
            n = args[0].size()
            if l >= n:
                return z3.BitVecVal(0, h - l + 1)
            if h < n:
                return self.bits(args[0], h, l)
            return z3.Concat(z3.BitVecVal(0, h - n + 1), self.bits(args[0], n - 1, l))
        return z3.Extract(h, l, self.term(t))


def _zero_tail(t):
    """How many low bits of t are a zero constant of its concatenation."""
    if z3.is_app(t) and t.decl().kind() == z3.Z3_OP_CONCAT:
        low = t.arg(t.num_args() - 1)
        if z3.is_bv_value(low) and low.as_long() == 0:
            return low.size()
    return 0


def narrow(e, memo=None):
    """e narrowed and simplified; memo: a _Narrow shared by terms that
    share subterms (each lane's claim of one function)."""
    return z3.simplify((memo or _Narrow()).term(e))


def _disjuncts(c):
    """c's disjuncts, through nested or, not-and (De Morgan) and implies."""
    if z3.is_or(c):
        return [d for x in c.children() for d in _disjuncts(x)]
    if z3.is_implies(c):
        return _disjuncts(z3.Not(c.arg(0))) + _disjuncts(c.arg(1))
    if z3.is_not(c) and z3.is_and(c.arg(0)):
        return [d for x in c.arg(0).children() for d in _disjuncts(z3.Not(x))]
    if z3.is_not(c) and z3.is_not(c.arg(0)):
        return _disjuncts(c.arg(0).arg(0))
    return [c]


# the deepest term the recursive walkers below take: a Python recursion
# limit reached inside z3's Python API can leave a reference count short
# (a term freed while a parent still holds it), so a deeper claim is never
# walked, only asked as it is
MAX_DEPTH = 150


class _LaneSets:
    """The lanes whose variables a term names (a frozenset of lane
    indexes), and the term's depth, remembered across the lanes of one
    function: their claims share most subterms. Walks with a stack of its
    own, never Python's. A quantifier (none is made today) counts as
    naming every lane. Holds each term it keys by id."""

    EVERY = frozenset(('every',))

    def __init__(self, ids):
        self.ids, self.memo = ids, {}

    def __call__(self, t):
        return self.walk(t)[0]

    def depth(self, t):
        return self.walk(t)[1]

    def walk(self, t):
        hit = self.memo.get(t.get_id())
        if hit is not None:
            return hit[1]
        stack = [(t, False)]
        while stack:
            u, ready = stack.pop()
            i = u.get_id()
            if i in self.memo:
                continue
            lane = self.ids.get(i)
            if lane is not None:
                self.memo[i] = (u, (frozenset((lane[1],)), 1))
            elif z3.is_quantifier(u):
                self.memo[i] = (u, (self.EVERY, 1))
            elif not (z3.is_app(u) and u.num_args()):
                self.memo[i] = (u, (frozenset(), 1))
            elif ready:
                kids = [self.memo[c.get_id()][1] for c in _children(u)]
                self.memo[i] = (u, (frozenset().union(*[k[0] for k in kids]), 1 + max(k[1] for k in kids)))
            else:
                stack.append((u, True))
                stack.extend((c, False) for c in _children(u) if c.get_id() not in self.memo)
        return self.memo[t.get_id()][1]


def strengthen(c, k, lanes_of):
    """c's disjuncts without those that name another lane than k and not
    k; None when nothing is dropped or nothing is left."""
    every = _disjuncts(c)
    keep = [d for d in every if k in lanes_of(d) or not lanes_of(d)]
    if len(keep) == len(every) or not keep:
        return None
    return keep[0] if len(keep) == 1 else z3.Or(*keep)


# the operations whose value may not change with an operand that does:
# where a subterm naming other lanes is tried for independence
_NARROWING = {z3.Z3_OP_EXTRACT, z3.Z3_OP_BAND, z3.Z3_OP_BOR, z3.Z3_OP_BMUL, z3.Z3_OP_ITE}


class _Localize:
    """r with each lowest subterm that names another lane than k, yet whose
    value z3 finds the same whatever the other lanes' variables are,
    replaced by its value with them 0. pairs: [subterm == replacement],
    each an equality the second solver must find valid. term() is None
    when another lane's variable is left. tried: the answers for each
    subterm and lane set, shared by the lanes of one function."""

    def __init__(self, k, lanes_of, zero, tried, seconds):
        self.k, self.lanes_of, self.zero, self.tried, self.seconds = k, lanes_of, zero, tried, seconds
        self.done, self.pairs = {}, []

    def term(self, t):
        """t lane-local, or None."""
        others = self.lanes_of(t) - {self.k}
        if not others:
            return t
        i = t.get_id()
        if i in self.done:
            return self.done[i][1]
        out = None
        if z3.is_app(t) and t.num_args():
            kids = [self.term(c) for c in _children(t)]
            if all(k is not None for k in kids):
                out = _update(t, kids)
            elif z3.is_bool(t) or t.decl().kind() in _NARROWING:
                out = self.constant(t, others)
        self.done[i] = (t, out)
        return out

    def constant(self, t, others):
        """t's value with the lanes of others 0, when z3 shows it is t's
        value whatever they are; else None."""
        key = (t.get_id(), others)
        hit = self.tried.get(key)
        if hit is not None:
            if hit[1] is not None:
                self.pairs.append(hit[1])
            return hit[2]
        out = eq = None
        if self.seconds > 0:
            t0 = z3.simplify(self.zero(t))
            s = solver.bit_blasting()
            s.set('timeout', max(1, int(min(self.seconds, 2.0) * 1000)))
            s.add(t != t0)
            started = time.monotonic()
            if s.check() == z3.unsat:
                eq, out = t == t0, t0
                self.pairs.append(eq)
            self.seconds -= time.monotonic() - started
            self.tried[key] = (t, eq, out)
        return out


def _zeroing(lane_vars, k):
    """A function: a term with every lane variable but lane k's 0."""
    olds = [x for parts in lane_vars for j, x in enumerate(parts) if j != k]
    zeros = [z3.BitVecVal(0, x.size()) for x in olds]       # held: the arrays do not own them
    src = (z3.Ast * len(olds))(*[x.as_ast() for x in olds])
    dst = (z3.Ast * len(zeros))(*[z.as_ast() for z in zeros])

    def zero(t, held=(olds, zeros)):
        return z3.z3._to_expr_ref(z3.Z3_substitute(t.ctx.ref(), t.as_ast(), len(olds), src, dst), t.ctx)
    return zero


# the operations whose arguments may come in any order
_COMMUTATIVE = {z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_XOR, z3.Z3_OP_EQ, z3.Z3_OP_BADD, z3.Z3_OP_BMUL,
                z3.Z3_OP_BAND, z3.Z3_OP_BOR, z3.Z3_OP_BXOR}


class _Canon:
    """A term with the arguments of every commutative operation in an order
    of their shape, not of the ids z3 gave them (two lanes' claims differ
    in that order only): a reordering keeps the term's value, so the
    result is the same claim. Holds each term it keys by id."""

    def __init__(self):
        self.memo = {}

    def __call__(self, t):
        hit = self.memo.get(t.get_id())
        if hit is not None:
            return hit[1], hit[2]
        if z3.is_app(t) and t.num_args():
            kids = [self(c) for c in _children(t)]
            d = t.decl()
            if d.kind() in _COMMUTATIVE:
                kids.sort(key=lambda x: x[1])
            shape = hash((d.kind(), d.name(), tuple(d.params()) if d.kind() == z3.Z3_OP_EXTRACT else (),
                          tuple(h for _, h in kids)))
            out = _update(t, [k for k, _ in kids])
        else:
            out, shape = t, hash(('leaf', t.sexpr()))
        self.memo[t.get_id()] = (t, out, shape)
        return out, shape



def _holds(assumptions, claim, seconds):
    s = solver.bit_blasting()
    s.set('timeout', max(1, int(seconds * 1000)))
    s.add(*assumptions)
    s.add(z3.Not(claim))
    return s.check() == z3.unsat


def classes(assumptions, lane_claims, lane_vars, seconds=10.0):
    """lane_claims: [(lane k, claim)]; lane_vars: per input, its lane
    variables [x_0, x_1, ...], of which the input is the concatenation.
    -> ([(claim to ask, [lanes it answers for])], every lane in
    exactly one; [equalities]: each a subterm of a lane's claim that names
    other lanes' variables, equal to the lane-local term put in its place,
    all of which must be valid as well)."""
    ids = {x.get_id(): (j, k) for j, parts in enumerate(lane_vars) for k, x in enumerate(parts)}
    if any(constants(a) & set(ids) for a in assumptions):
        return [(c, [k]) for k, c in lane_claims], []
    asked, refused, out, side = {}, {}, [], []     # refused holds its terms: ids are reused
    deadline, memo, lanes_of, tried = time.monotonic() + seconds, _Narrow(), _LaneSets(ids), {}
    canon = _Canon()
    for k, c in lane_claims:
        r = c
        if lanes_of.depth(r) > MAX_DEPTH or _LaneSets.EVERY <= lanes_of(r):
            out.append((c, [k]))
            continue
        if lanes_of(r) - {k}:
            r = narrow(r, memo)
            if lanes_of.depth(r) > MAX_DEPTH:
                out.append((c, [k]))
                continue
        stronger = None
        if lanes_of(r) - {k}:
            # the path's conditions on other lanes dropped; what other
            # lanes' variables are left must not change the value
            stronger = strengthen(r, k, lanes_of)
            if stronger is not None:
                r = stronger
        if lanes_of(r) - {k}:
            loc = _Localize(k, lanes_of, _zeroing(lane_vars, k), tried, deadline - time.monotonic())
            local = loc.term(r)
            if local is None:
                out.append((c, [k]))
                continue
            r = narrow(local, memo)
            if lanes_of.depth(r) > MAX_DEPTH:
                out.append((c, [k]))
                continue
            side += loc.pairs
        renamed = canon(z3.simplify(z3.substitute(r, *[(parts[k], parts[0]) for parts in lane_vars])))[0]
        at = asked.get(renamed.get_id())
        if at is None:
            # a stronger claim than the lane's is asked only once z3 proves it
            if stronger is not None and (renamed.get_id() in refused or
                                         not _holds(assumptions, renamed, max(0.5, deadline - time.monotonic()))):
                refused[renamed.get_id()] = renamed
                out.append((c, [k]))
                continue
            asked[renamed.get_id()] = len(out)
            out.append((renamed, [k]))
        else:
            out[at][1].append(k)
    return out, side
