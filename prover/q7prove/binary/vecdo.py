# SPDX-License-Identifier: BSD-3-Clause
"""The vector level's calls by op, q7v_do_<kind>(op, ...), proven from the
machine code, as `q7pred prove --all` runs them (docs/proofs.md).

<q7pred_vec.h>'s contract: a call by op runs the instruction of the table's
row op is (or a copy of), on the path in force; op NULL, no row of the
table, or a row of another kind returns 0 (a vbool) and leaves the outputs
untouched. The rows are the library's own: q7v_op_at(i) for every
i < q7v_op_count(), run in the dispatch check's emulator. A row is told by
the two fields the contract names, its id and its kind (enum q7v_kind:
KIND_CODE); its instruction is the one its mnemonic names (binary/vecspec.py,
never the op table's source).

The proof, by cases of op:
  - op NULL, and op with (id, kind) any value no row of the call's kinds
    has (one run each, whatever `in_force` holds: the path in force, or
    none yet): every path returns 0 (a vbool) or writes no output byte,
    reaches no kernel, and owes its caller what a leaf's does
    (binary/leaf.py);
  - op a row's (id, kind), on each path (`in_force` that path's table),
    all rows of one kind in one run (the id a variable bounded to theirs):
    every path jumps, by a clean tail call with the kind's arguments
    (binary/vecrun.py: tail_call_problems), to the kernel that
    q7v_<mnemonic>'s proof on the same path reached and proved from the
    kernel's own entry state (VecRun's generic), for the row op is. That
    kernel proof holds for every state such a call can enter the kernel
    in, so the call computes what q7v_<mnemonic> does: the row's
    instruction. Where the group's run is not proven, each row runs alone,
    and a row's call that jumps elsewhere, or not cleanly, runs on into
    the kernel and is claimed the row's instruction at its return (a wrong
    row is then refuted with its counterexample);
  - op a row's, `in_force` NULL: the dispatch check (binary/vecdispatch.py)
    runs the call on every feature set and environment; it must reach one
    of the row's kernels, proven as above, whose instructions that CPU
    runs.
"""
import collections
import os
import time

import z3

from q7prove.binary import leaf as leaf_proof
from q7prove.binary import prove as _prove
from q7prove.binary import vecspec, vector
from q7prove.binary.vecrun import PARAMS, PATHS, RETURNS, Tables, VecRun, counterexample
from q7prove.machine.memory import Ptr
from q7prove.machine.state import GPRS
from q7prove.smt import bitvec as bv

# each call by op: the kinds of the rows it runs (its C parameters after op
# are the first kind's)
DO = {'q7v_do_cmp': ('CMP',), 'q7v_do_cmp_t': ('CMP_T',), 'q7v_do_clsfy': ('CLSFY',),
      'q7v_do_logic': ('LOGIC2', 'LOGIC1'), 'q7v_do_extbi': ('EXTBI',), 'q7v_do_injbi': ('INJBI',),
      'q7v_do_fsltu': ('FSLTU',), 'q7v_do_red8': ('RED8',), 'q7v_do_movfsv': ('MOVFSV',),
      'q7v_do_movvfs': ('MOVVFS',)}
# enum q7v_kind's values, in <q7pred_vec.h>'s order (tests/test_prove_vecdo.sh checks them and
# struct q7v_op's layout against the header as a compiler reads it)
KIND_CODE = {k: i for i, k in enumerate(PARAMS)}
OP_SIZE, OP_ID, OP_MNEMONIC, OP_KIND = 32, 0, 8, 16
MAX_ROWS = 4096
MAX_ID_BITS = 8       # a row's id: the one short variable a read of the table at a computed row may take


class Row:
    """Row index of the table: at its address in the library (q7v_op_at's
    answer), its bytes, its id, kind and mnemonic."""

    def __init__(self, index, addr, raw, mnemonic):
        self.index, self.addr, self.raw, self.mnemonic = index, addr, raw, mnemonic
        self.id = int.from_bytes(raw[OP_ID:OP_ID + 4], 'little')
        self.kind = int.from_bytes(raw[OP_KIND:OP_KIND + 4], 'little')

    def text(self):
        return 'row %d (%s)' % (self.index, self.mnemonic)


_rows = {}


def table_rows(image):
    """[Row] as q7v_op_count and q7v_op_at give them; ValueError saying why
    they cannot be read."""
    key = id(image)
    if key not in _rows:      # the image kept with them: its id names no other while they are
        try:
            _rows[key] = (image, _read_rows(image))
        except ValueError as e:
            _rows[key] = (image, e)
    if isinstance(_rows[key][1], ValueError):
        raise _rows[key][1]
    return _rows[key][1]


def _read_rows(image):
    from q7prove.binary import vecdispatch
    for n in ('q7v_op_count', 'q7v_op_at'):
        if n not in image.by_name:
            raise ValueError('%s is not exported' % n)
    try:
        import unicorn  # noqa: F401
    except ImportError:
        raise ValueError('unicorn missing (Debian: python3-unicorn)')
    em = vecdispatch.emulator(image)
    count = em.call(image.by_name['q7v_op_count'].value)
    if count > MAX_ROWS:
        raise ValueError('q7v_op_count() is %d, past %d rows' % (count, MAX_ROWS))
    out = []
    for i in range(count):
        at = em.call(image.by_name['q7v_op_at'].value, i)
        try:
            raw = em.read(at, OP_SIZE)
            where = int.from_bytes(raw[OP_MNEMONIC:OP_MNEMONIC + 8], 'little')
            name = em.string(where)
        except Exception as e:     # unicorn's UcError: an address it has no page for
            raise ValueError('q7v_op_at(%d) gives %s, whose row cannot be read (%s)' % (i, em.where(at), e))
        at, where = at - vecdispatch.BASE, where - vecdispatch.BASE     # as the file names them
        # what the rows say must be what every call sees: the library's read-only data
        if not image.readable(at, OP_SIZE) or not image.readable(where, len(name) + 1):
            raise ValueError('row %d (at %#x) or its mnemonic lies outside the library\'s read-only data' % (i, at))
        row = Row(i, at, raw, name.decode('ascii', 'replace'))
        if row.id >> MAX_ID_BITS:
            raise ValueError('row %d has id %d, past 2^%d' % (i, row.id, MAX_ID_BITS))
        out.append(row)
    return out


def jobs(image, table, names):
    """One job for each q7v_do_* the library exports; the family answers
    for no other name."""
    return [ByOp(n) for n in names if n in DO]


class DoRun(VecRun):
    """One case of a call by op. case: ('null',); ('none', rows, part, b):
    no row's (id, kind) of rows, the id below 2^b (part 'low') or not
    ('high'); ('rows', rows of one kind, path, b, where): any of them at
    once; ('row', row, path, where): one; where 'copy' (op a copy of the
    row in the caller's memory) or 'table' (op the row itself, in the
    library)."""

    def __init__(self, image, decoder, name, symbol, tables, case, deadline):
        row = case[1] if case[0] == 'row' else None
        op = vecspec.derive(row.mnemonic) if row is not None else None
        path = case[2] if case[0] in ('row', 'rows') else None
        VecRun.__init__(self, image, decoder, op, symbol, tables, path, deadline)
        self.name, self.case, self.row = name, case, row
        self.kind = (op.kind if row is not None else vecspec.derive(case[1][0].mnemonic).kind
                     if case[0] == 'rows' else DO[name][0])
        self.expected_kernel, self.short = None, []
        self.kernels_of = {}   # 'rows': row index -> the kernel q7v_<mnemonic> reaches on the path

    def kernel_kind(self):
        return self.kind

    def _lanes_of(self, name, bits, lane_bits):
        return z3.BitVec(name, bits)

    def in_force(self, img):
        if self.case[0] in ('row', 'rows'):
            return VecRun.in_force(self, img)
        return z3.BitVec('in_force', 64)      # any table, or none chosen yet

    def leading_args(self, mem):
        if self.case[0] == 'null':
            return [z3.BitVecVal(0, 64)]
        if self.case[0] == 'row':
            ident, kind = z3.BitVecVal(self.row.id, 32), z3.BitVecVal(self.row.kind, 32)
            if self.case[-1] == 'table':          # op the row itself, in the library
                self.op_fields = {'op_id': ident, 'op_kind': kind}
                return [Ptr(mem.objects['image'], self.row.addr)]
        elif self.case[0] == 'rows':
            rows, _, b, where = self.case[1:]
            x = z3.BitVec('op_id', b)
            ident = z3.ZeroExt(32 - b, x)
            if where == 'table':
                # op the row itself, in the library: the row whose id x is (one kind: the ids differ)
                self.premises = [z3.Or([x == r.id for r in rows])]
                self.op_fields = {'op_id': ident, 'op_kind': z3.BitVecVal(rows[0].kind, 32)}
                return [Ptr(mem.objects['image'], bv.choice(x, {r.id: r.addr for r in rows}, 64))]
            kind = z3.BitVec('op_kind', 32)
            self.premises = [z3.Or([z3.And(ident == r.id, kind == r.kind) for r in rows])]
        else:
            # ids below 2^b (a number that short bounds the table's reads) and
            # the rest: two runs whose union is every id
            rows, part, b = self.case[1:]
            kind = z3.BitVec('op_kind', 32)
            if part == 'low':
                ident = z3.ZeroExt(32 - b, z3.BitVec('op_id', b))
                match = [z3.And(ident == r.id, kind == r.kind) for r in rows]
                self.premises = [z3.Not(z3.Or(match))] if match else []
            else:
                ident = z3.BitVec('op_id', 32)
                self.premises = [z3.UGE(ident, 1 << b)]
        self.op_fields = {'op_id': ident, 'op_kind': kind}
        rest = [z3.BitVec('op_' + f, b) for f, b in (('pad', 32), ('mnemonic', 64), ('fmt', 32), ('leaf_id', 32),
                                                     ('fs_index', 32))]
        value = z3.Concat(rest[4], rest[3], rest[2], kind, rest[1], rest[0], ident)   # byte 0 lowest
        return [Ptr(mem.new('op', 'in', OP_SIZE, 8, value), 0)]

    def at_kernel(self, s, target):
        """A row's call that jumps to the kernel q7v_<mnemonic> proved, by a
        clean tail call, ends there; one that jumps elsewhere, or otherwise,
        runs on into the kernel and is claimed the row's instruction at its
        return (the row's proof done again, through the call). Any other
        case ends at the jump."""
        why = self.tail_call_problems(s)
        if self.case[0] == 'row' and (target != self.expected_kernel or why):
            self.kernel_entries.append((target, why))
            return False
        s.kernel_jump = (target, why)
        return True

    def claims(self):
        """The claims z3 decides; what the run shows it cannot claim goes
        to self.short (the case is then unproven, never refuted)."""
        self.short = []
        if self.case[0] == 'row':
            return VecRun.claims(self)        # what returns: the row's instruction
        out = leaf_proof.owed_claims(self.finals)
        if self.case[0] == 'rows':
            return out + self._rows_claims()
        for s, how in self.finals:
            p = bv.boolean(s.path())
            if how == 'kernel':
                # with no table in force known, the kernel cannot be run on
                self.short.append('it may jump to the kernel at %#x' % s.kernel_jump[0])
            elif how == 'return':
                if self.kind in RETURNS:
                    got = bv.term(s.gpr[GPRS.index('rax')], 64)
                    out.append(('returns a vbool other than 0', None, z3.Implies(p, got == 0)))
                for name, obj in self.objs.items():
                    if obj.kind != 'out':
                        continue
                    for (o, off), e in s.mem.bytes.items():
                        if o == obj.name:
                            out.append(('writes %s' % name, None, z3.Implies(p, z3.Not(bv.boolean(e[3])))))
                out += self.abi_claims(s, p)
        return out


    def _rows_claims(self):
        """All rows of one kind at once: every path jumps, by a clean tail
        call, to a kernel some q7v_<mnemonic> reached, and the op is then
        one of the rows whose kernel that is."""
        out = []
        ident, kind = self.op_fields['op_id'], self.op_fields['op_kind']
        for s, how in self.finals:
            p = bv.boolean(s.path())
            if how == 'return':
                out.append(('returns without running a kernel', None, z3.Not(p)))
            elif how == 'kernel':
                target, why = s.kernel_jump
                if why:
                    self.short.append('it jumps to a kernel, but not by a clean tail call: ' + '; '.join(why))
                rows = [z3.And(ident == r.id, kind == r.kind) for r in self.case[1]
                        if self.kernels_of.get(r.index) == target]
                out.append(('jumps to %#x for a row whose kernel that is not' % target, None,
                            z3.Implies(p, z3.Or(rows)) if rows else z3.Not(p)))
        return out


def _explain(run, model, fail):
    """A refutation's counterexample: the case, op's id and kind, and a
    row's inputs by parameter name (binary/vecrun.py's counterexample)."""
    val = lambda v: model.eval(v, model_completion=True).as_long()
    shown = {'case': _case_text(run.case)}
    for n, v in getattr(run, 'op_fields', {}).items():
        shown[n] = hex(val(v))
    if run.case[0] == 'row':
        shown['row'] = run.row.mnemonic
        shown.update(counterexample(run, model))
    return {'counterexample': shown}


class ByOp:
    """One q7v_do_* function, proven by cases of op. It runs after the
    other families' jobs (after_others): its rows stand on the q7v_
    instructions' proofs, made once (binary/vector.py's Job.prove), so it
    takes only its own cases' time."""

    after_others = True

    def __init__(self, name, only=None, paths=PATHS, dispatch=True):
        # only: the mnemonics of the rows to prove (a shorter run: the
        # function is then unproven at best); paths and dispatch as
        # binary/vector.py's Job
        self.name, self.only, self.paths, self.dispatch = name, only, tuple(paths), dispatch

    def prove(self, image, decoder, timeout, agreement):
        t0 = time.monotonic()
        sym = image.by_name.get(self.name)
        early = vector.binding(image, self.name, sym)
        tables = Tables(image) if early is None else None
        if early is None and tables.problem:
            early = {'status': 'unproven', 'reason': 'the kernel tables cannot be found: ' + tables.problem}
        rows = []
        if early is None:
            try:
                rows = [r for r in table_rows(image) if r.kind in {KIND_CODE[k] for k in DO[self.name]}]
            except ValueError as e:
                early = {'status': 'unproven', 'reason': 'the op table cannot be read: %s' % e}
        if early is not None:
            return _prove.Leaf(dict(early, function=self.name), [], None, time.monotonic() - t0)
        short, named = [], {}
        keys = [(r.id, r.kind) for r in rows]
        # a row is told by its id and kind: two rows alike would be one op owing two instructions
        short += ['%s: its id and kind are another row\'s too' % r.text()
                  for r in rows if keys.count((r.id, r.kind)) > 1]
        # the rows' proofs, each with its second solver running beside the
        # next, at most one a core outstanding (binary/prove.py's rule)
        outstanding, width = collections.deque(), max(1, len(os.sched_getaffinity(0)))
        for r in rows:
            op = vecspec.derive(r.mnemonic)
            want = next((k for k, c in KIND_CODE.items() if c == r.kind), None)
            if op is None or op.kind != want:
                short.append('%s: %s' % (r.text(), 'the mnemonic names no instruction of DECISIONS.md section 3'
                                         if op is None else 'a %s instruction, where the row says %s' % (op.kind, want)))
            elif 'q7v_' + r.mnemonic not in image.by_name:
                short.append('%s: q7v_%s is not exported, whose proof proves the row\'s kernels'
                             % (r.text(), r.mnemonic))
            elif self.only is not None and r.mnemonic not in self.only:
                short.append('%s: not asked' % r.text())
            else:
                named[r.index] = vector.Job('q7v_' + r.mnemonic, op, self.paths, self.dispatch).prove(
                    image, decoder, timeout, agreement)
                outstanding.append(named[r.index])
                while outstanding and (len(outstanding) > width or outstanding[0].done()):
                    outstanding.popleft().final()
        everyone = table_rows(image)
        id_bits = max(1, (max([len(everyone)] + [r.id + 1 for r in everyone]) - 1).bit_length())
        done = []

        def case_proof(case):
            deadline = time.monotonic() + timeout
            res, box = {}, {}

            def make(reached):
                run = box['run'] = DoRun(image, reached, self.name, sym, tables, case, deadline)
                if case[0] == 'row':
                    run.expected_kernel = _kernel(named[case[1].index], case[2])
                elif case[0] == 'rows':
                    run.kernels_of = {r.index: _kernel(named[r.index], case[2]) for r in case[1]}
                return run.run()
            pending = _prove.settle(res, make, decoder, deadline, timeout, agreement, _explain)
            run = box.get('run')
            if res['status'] == 'proven-binary' and run is not None and run.short:
                res.update(status='unproven', reason='; '.join(dict.fromkeys(run.short)))
                if pending is not None:
                    pending.answer()        # its process ended before the case is dropped
                pending = None
            # whether the case stood on q7v_<mnemonic>'s kernel proof: it ended at the kernel
            stopped = run is not None and any(how == 'kernel' for _, how in getattr(run, 'finals', ()))
            return (case, res, pending, set(getattr(run, 'features', ())), stopped)

        for case in [('null',)] + [('none', rows, part, id_bits) for part in ('low', 'high')]:
            done.append(case_proof(case))
        # each path: the rows of each kind at once; where that is not proven,
        # row by row (which refutes a wrong one with its counterexample)
        asked = [r for r in rows if r.index in named]
        for p in self.paths:
            for kind in sorted({r.kind for r in asked}):
                group = [r for r in asked if r.kind == kind]
                for where in ('copy', 'table'):       # op a copy of the row, and the row itself
                    whole = case_proof(('rows', group, p, id_bits, where))
                    if whole[1]['status'] == 'proven-binary':
                        done.append(whole)
                    else:
                        done += [case_proof(('row', r, p, where)) for r in group]
        if any(res['status'] == 'refuted' for _, res, _, _, _ in done):
            done = [d for d in done if d[1]['status'] == 'refuted'][:1]
        dispatch = {}
        if self.dispatch and all(res['status'] == 'proven-binary' for _, res, _, _, _ in done):
            from q7prove.binary import vecdispatch
            for r in rows:
                if r.index in named:
                    own = set().union(*[f for c, _, _, f, _ in done if (c[0] == 'row' and c[1] is r) or
                                        (c[0] == 'rows' and r in c[1])])
                    paths = [_Kernel(pr, own) for pr in named[r.index].paths]
                    # op the row itself (in the library), and a copy of it (in the caller's memory)
                    regs = vector.kernel_registers(vecspec.derive(r.mnemonic).kind)
                    dispatch[r.index] = [vecdispatch.check(image, sym, tables, paths, lead=1, kernel_args=regs,
                                                           values=(vecdispatch.BASE + r.addr,)),
                                         vecdispatch.check(image, sym, tables, paths, first=r.raw, lead=1,
                                                           kernel_args=regs)]
        return ByOpResult(self.name, rows, named, done, dispatch, short, time.monotonic() - t0)


def _kernel(result, path):
    """The kernel q7v_<mnemonic>'s proof on path proved as a function of
    its own (binary/vector.py's generic), once its second solver agrees;
    else None (a row's call is then run on into its kernel)."""
    for p in result.paths:
        if p.path == path:
            result.final()
            return p.kernel_addr if p.status == 'proven-binary' and p.generic is None else None
    return None


class _Kernel:
    """A row's path for the dispatch check: its kernel, and what the call
    and the kernel run."""

    def __init__(self, pr, own):
        self.path, self.kernel_addr, self.features = pr.path, pr.kernel_addr, set(pr.features) | own


def _case_text(case):
    if case[0] == 'null':
        return 'op NULL'
    if case[0] == 'none':
        return 'op no row of its kind, its id %s 2^%d' % ('below' if case[2] == 'low' else 'from', case[3])
    op = 'op the row itself' if case[-1] == 'table' else 'op a copy of the row'
    if case[0] == 'rows':
        return 'its %d rows of kind %s on the %s path, %s' % (len(case[1]), case[1][0].kind, case[2], op)
    return '%s on the %s path, %s' % (case[1].text(), case[2], op)


class ByOpResult:
    """The function's answer (the leaf prover's Leaf: done() and final()),
    final once its own cases' and its rows' proofs' second solvers have
    answered."""

    def __init__(self, name, rows, named, done, dispatch, short, seconds):
        self.name, self.rows, self.named, self.cases = name, rows, named, done
        self.dispatch, self.short, self.seconds = dispatch, short, seconds

    def done(self):
        return all(p is None or p.done() for _, _, p, _, _ in self.cases) and all(r.done() for r in self.named.values())

    def final(self):
        out = {'function': self.name}
        t0 = time.monotonic()       # the job's time, and then the wait for its second solver's answers
        for case, res, pending, _, _ in self.cases:
            if pending is not None:
                answer, detail = pending.answer()
                if answer != 'unsat':
                    res.update(status='unproven', reason=_prove._unconfirmed(answer, detail))
        refuted = [(c, r) for c, r, _, _, _ in self.cases if r['status'] == 'refuted']
        short = list(self.short)
        short += ['%s: %s' % (_case_text(c), r.get('reason')) for c, r, _, _, _ in self.cases
                  if r['status'] not in ('proven-binary', 'refuted')]
        statuses = {}
        for r in self.rows:
            if r.index not in self.named:
                continue
            self.named[r.index].final()
            for pr in self.named[r.index].paths:
                # a case that stood on the kernel's proof (it stopped at the
                # kernel: _kernel gave it) needs that proof whole
                relied = any(c[0] in ('row', 'rows') and c[2] == pr.path and r in (c[1] if c[0] == 'rows' else [c[1]])
                             and stopped for c, res, _, _, stopped in self.cases)
                if relied and (pr.status != 'proven-binary' or pr.generic is not None):
                    short.append('%s on the %s path: q7v_%s\'s kernel proof is %s' % (
                        r.text(), pr.path, r.mnemonic, pr.status if pr.status != 'proven-binary' else
                        'not one of the kernel as a function of its own (%s)' % pr.generic))
            # a first call reaching a path's kernel stands on that kernel's proof as a function of its own
            statuses[r.index] = vector.first_call([{'path': pr.path, 'status': pr.status} for pr in
                                                   self.named[r.index].paths], self.named[r.index].paths)
        wrong, unresolved, reach, cases = [], [], {}, 0
        for index, checks in sorted(self.dispatch.items()):
            row = next(r for r in self.rows if r.index == index)
            for d in checks:
                cases += d.cases
                for p, n in d.reach.items():
                    reach[p] = reach.get(p, 0) + n
                if d.refuted(statuses[index]):
                    wrong.append('%s: %s' % (row.text(), d.refuted(statuses[index])))
                elif d.unproven(statuses[index]):
                    unresolved.append('%s: %s' % (row.text(), d.unproven(statuses[index])))
        if refuted:
            case, res = refuted[0]
            out.update(res)
            out['reason'] = '%s: %s' % (_case_text(case), res['reason'])
        elif wrong:
            out.update(status='refuted', reason='dispatch: ' + '; '.join(wrong[:3]))
        elif short or unresolved:
            out.update(status='unproven', reason='; '.join((short + ['dispatch: ' + u for u in unresolved])[:4]))
        elif not self.dispatch and self.rows:
            out.update(status='unproven', reason='dispatch: not checked')
        elif any(len(r.paths) < len(PATHS) for r in self.named.values()):
            out.update(status='unproven', reason='only the %s paths asked' % ', '.join(r.path for r in
                                                                                     next(iter(self.named.values())).paths))
        else:
            out.update(status='proven-binary',
                       reason='op NULL and every op no row of its kind: 0 and no output written; each of its %d rows '
                              'on each path: a clean tail call to the kernel q7v_<mnemonic> proved' % len(self.rows))
        out['kernels'] = '%d rows (%s) x %d paths' % (len(self.rows), ' '.join(r.mnemonic for r in self.rows),
                                                      len(PATHS))
        if self.dispatch:
            out['dispatch_reach'] = '%d cases: %s' % (cases, ', '.join('%s %d' % kv for kv in sorted(reach.items())))
        out['cases'] = [dict(case=_case_text(c), status=r['status'], **({'reason': r['reason']} if 'reason' in r else {}))
                        for c, r, _, _, _ in self.cases]
        features = sorted({x for _, r, _, _, _ in self.cases for x in r.get('cpu_features', '').split()})
        if features:
            out['cpu_features'] = ' '.join(features)
        out['seconds'] = round(self.seconds + time.monotonic() - t0, 3)
        return out


def main():
    import argparse
    import json
    import sys
    from q7prove.elf import image as elf_image, loaded as elf_loaded
    from q7prove.x86.decode import Decoder
    from q7prove.x86.agree import Agreement
    emit = lambda obj: (sys.stdout.write(json.dumps(obj) + '\n'), sys.stdout.flush())
    ap = argparse.ArgumentParser(prog='q7prove.binary.vecdo', description='prove the q7v_do_* functions of a library')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--loader', help='the q7pred executable that loads the library (its loaded-image child)')
    ap.add_argument('--function', action='append', default=[])
    ap.add_argument('--rows', help='only these rows, by mnemonic (comma-separated): a shorter run')
    ap.add_argument('--paths', default=','.join(PATHS))
    ap.add_argument('--no-dispatch', action='store_true')
    ap.add_argument('--timeout', type=float, default=60.0)
    a = ap.parse_args()
    paths = [p for p in a.paths.split(',') if p]
    bad = [f for f in a.function if f not in DO] + [p for p in paths if p not in PATHS]
    if bad:
        emit({'error': '%s: neither a q7v_do_ function nor a path' % bad[0]})
        return 2
    try:
        image = elf_image.Image(a.lib, a.lib)
        names = a.function or sorted(n for n in DO if n in image.by_name)
        try:
            need = ['q7v_' + r.mnemonic for r in table_rows(image) if 'q7v_' + r.mnemonic in image.by_name]
        except ValueError:
            need = []
        elf_loaded.attach(image, a.loader, a.lib, names + need)
    except (elf_image.ElfError, elf_loaded.LoadError) as e:
        emit({'error': str(e)})
        return 2
    decoder, agreement = Decoder(image), Agreement()
    only = set(a.rows.split(',')) if a.rows else None
    try:
        for n in names:
            emit({'start': n})
            emit(ByOp(n, only, paths, not a.no_dispatch).prove(image, decoder, a.timeout, agreement).final())
    finally:
        agreement.close()
    return 0


if __name__ == '__main__':
    import sys
    sys.exit(main())
