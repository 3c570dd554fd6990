# SPDX-License-Identifier: BSD-3-Clause
"""The z3 solver q7pred prove uses on machine code, and the one rule for
its answers.

Every obligation is quantifier-free bit vectors and IEEE floats, so the
solver turns the floats into bit vectors (fpa2bv), simplifies, and
bit-blasts to SAT at once; a formula that is then not pure bit vectors
(a float converted to a real, say) goes to z3's general engine. An unsat
is a proof from either. Measured here against z3's default solver: the
86 leaves' machine code in 4.5 s against 7 s, with the same answer for
every leaf.

The rule: a question is answered sat, unsat or unknown (a timeout, an
incomplete theory, an interrupt), and unknown is never read as unsat.
`possible` reads it as "possible" (the caller keeps what it would have
dropped); `decided` raises Undecided, naming the question, where the
caller cannot go on without the answer (the leaf is then unproven)."""
import z3


class Undecided(Exception):
    """A solver could not answer a question the proof depends on."""


def bit_blasting():
    """A fresh solver; it takes set('timeout', ms), push and pop."""
    return z3.Then('simplify', 'fpa2bv', 'simplify', 'propagate-values', 'solve-eqs',
                   z3.Cond(z3.Probe('is-qfbv'), z3.Then('bit-blast', 'sat'), 'smt')).solver()


def answer(solver, *assumptions):
    """('sat' | 'unsat' | 'unknown', z3's reason for an unknown or None)."""
    r = solver.check(*assumptions)
    if r == z3.sat:
        return 'sat', None
    if r == z3.unsat:
        return 'unsat', None
    return 'unknown', solver.reason_unknown() or 'no reason given'


def possible(solver, *assumptions):
    """Whether the assumptions may hold together: False only on unsat."""
    return answer(solver, *assumptions)[0] != 'unsat'


def decided(solver, question, *assumptions):
    """True on sat, False on unsat; an unknown raises Undecided naming
    the question ("the targets of the jump at 0x1234")."""
    r, why = answer(solver, *assumptions)
    if r == 'unknown':
        raise Undecided('z3 could not decide %s (%s)' % (question, 'timeout' if 'timeout' in why or
                                                          'canceled' in why else why))
    return r == 'sat'
