# SPDX-License-Identifier: BSD-3-Clause
"""make prove-formal: every leaf and clean-API function, as clang compiles
it, proven equal to the specification for every input.

  ir/formal.py [--cc CLANG] [--srcdir DIR] [--build DIR] [--json FILE]
                  [--gaps FILE] [--leaf NAME]... [--define MACRO]...
                  [--only leaves|api|vector]... [--timeout SECONDS] [--quiet]

Compiles src/lib/abi/xdref.c, src/lib/model/api.c and the vector kernels of
every path (src/lib/vec/kernels_portable.c, kernels_avx2.c, kernels_avx512.c)
to LLVM IR with the library's own flags (mk/library.flags, at the
optimisation level the library ships with), translates each function
(ir/to_z3.py) and proves it against spec.py. Prints one line per leaf:
leaf, domain size, status, prover, seconds. Statuses: proven-ir (the
compiled IR), proven-semantics (a re-expression only), unproven. Writes
{"leaves": [{"leaf", "status", "seconds"}, ...]} to --json. Exits 1 if a
leaf is unproven and not listed in --gaps (one "name: reason" per line),
2 on a usage error. --define compiles the sources with -D MACRO (the
mutant switches), so a proof can be shown to fail.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from q7prove import SOURCE_TREE, requires

z3, _ = requires.modules('python3-z3, python3-llvmlite', 'z3', 'llvmlite')

from q7prove.ir import to_z3 as ir
from q7prove.ir import obligations as ob
from q7prove.obligations import spec
from q7prove.ir import vector


def library_flags(srcdir, source):
    """The flags mk/library.flags gives `source`, after the Makefile's -O2."""
    flags = ['-O2']
    with open(os.path.join(srcdir, 'mk/library.flags')) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            m = re.match(r'^(\S+):\s*(.*)$', line)
            if m and m.group(1) in ('all', source):
                flags += m.group(2).split()
    return flags


def compile_ir(cc, srcdir, source, out, defines):
    cmd = [cc] + library_flags(srcdir, source) + ['-I', os.path.join(srcdir, 'include'),
                                                  '-I', os.path.join(srcdir, 'src', 'lib'), '-S', '-emit-llvm',
                                                  '-g0']
    cmd += ['-D' + d for d in defines] + [os.path.join(srcdir, source), '-o', out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('prove-formal: %s did not compile:\n%s' % (source, r.stderr))
    with open(out) as f:
        return ir.Module(f.read())


def domain_bits(leaf, shape_ops):
    bits = 0
    for direction, name, width in shape_ops:
        if direction != 'IN':
            continue
        bits += {'MASK': 64, 'MASK8': 512, 'VEC': 512}.get(width, 32)
    return bits


def api_domain_bits(api, name, protos):
    """The input bits of an API function: its value parameters and the objects its const pointers read."""
    if name not in api.functions:
        return 0
    return sum(t.bits if t.kind == 'int' else 8 * ob._pointee_bytes(c)
               for (_, t), (c, _) in zip(api.functions[name].params, protos[name][1])
               if t.kind == 'int' or c.startswith('const'))


def read_gaps(path):
    gaps = {}
    if not path:
        return gaps
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            k, sep, v = line.partition(': ')  # names may hold ':' (vec-avx2:notb), never ': '
            if not sep or not v.strip():
                raise SystemExit('prove-formal: %s:%d: want "name: reason"' % (path, n))
            gaps[k.strip()] = v.strip()
    return gaps


def main():
    ap = argparse.ArgumentParser(prog='ir/formal.py', description='translation validation with z3')
    ap.add_argument('--cc', default='clang')
    ap.add_argument('--srcdir', default=SOURCE_TREE)
    ap.add_argument('--build', default='build')
    ap.add_argument('--json')
    ap.add_argument('--gaps')
    ap.add_argument('--leaf', action='append', default=[])
    ap.add_argument('--define', action='append', default=[])
    ap.add_argument('--only', action='append', choices=('leaves', 'api', 'vector'), default=[])
    ap.add_argument('--timeout', type=float, default=120.0)
    ap.add_argument('--quiet', action='store_true')
    a = ap.parse_args()

    t_all = time.perf_counter()
    leaves = spec.leaves(a.cc, a.srcdir)
    shapes = spec.shapes(a.cc, a.srcdir)
    protos = spec.prototypes(a.cc, a.srcdir)
    known = {l.name for l in leaves} | set(spec.operations(a.cc, a.srcdir)) | {vector.row_name(path, r[0]) for r in vector.vops(a.cc, a.srcdir)
                                                      for path in vector.PATHS}
    for name in a.leaf:
        if name not in known:
            print('prove-formal: --leaf %s: no such leaf, API function or vector kernel' % name, file=sys.stderr)
            return 2
    gaps = read_gaps(a.gaps)
    want = set(a.leaf)

    os.makedirs(a.build, exist_ok=True)
    tmp = tempfile.TemporaryDirectory(dir=a.build)
    compiled = {}

    def module(src):
        """src's IR, compiled the first time a row needs it."""
        if src not in compiled:
            compiled[src] = compile_ir(a.cc, a.srcdir, src, os.path.join(tmp.name, os.path.basename(src) + '.ll'),
                                       a.define)
        return compiled[src]
    rows = []

    def run(name, domain, make):
        if want and name not in want:
            return
        domain = domain() if callable(domain) else domain
        t0 = time.perf_counter()
        try:
            o = make()
            status, _, detail = ob.prove(o, int(a.timeout * 1000))
            status = {'proven': 'proven-ir', 'refuted': 'unproven', 'unknown': 'unproven'}[status]
            if detail and status != 'proven-ir':
                detail = ('counterexample: ' if 'unknown' not in detail and '=' in detail else 'z3: ') + detail
        except ir.Unsupported as e:
            status, detail = 'unproven', 'not translated: %s' % e
        except (KeyError, NameError, ValueError, TypeError, IndexError, z3.Z3Exception) as e:
            status, detail = 'unproven', 'no obligation: %s: %s' % (type(e).__name__, e)
        dt = time.perf_counter() - t0
        rows.append({'leaf': name, 'domain': domain, 'status': status, 'prover': 'z3 ' + z3.get_version_string(),
                     'seconds': round(dt, 3), 'detail': detail})
        if not a.quiet:
            print('%-44s 2^%-4d %-11s %-9s %7.2f s%s' % (name, domain, status, 'z3', dt,
                                                          ('  ' + detail) if detail else ''), flush=True)

    if not a.quiet:
        print('%-44s %-6s %-11s %-9s %9s' % ('leaf', 'domain', 'status', 'prover', 'time'))
    parts = set(a.only or ('leaves', 'api', 'vector'))
    for leaf in leaves if 'leaves' in parts else []:
        sh = shapes[leaf.shape]
        run(leaf.name, domain_bits(leaf, sh),
            lambda leaf=leaf, sh=sh: ob.leaf_obligation(module('src/lib/abi/xdref.c'), leaf, sh, protos))
    # Every operation of the table is a row: one with no rule in spec.OPS is unproven, never skipped.
    for name in sorted(spec.operations(a.cc, a.srcdir)) if 'api' in parts else []:
        run(name, lambda name=name: api_domain_bits(module('src/lib/model/api.c'), name, protos),
            lambda name=name: ob.api_obligation(module('src/lib/model/api.c'), name, protos))
    for path, source in vector.PATHS.items() if 'vector' in parts else []:
        for name, domain, make in vector.obligations(lambda source=source: module(source), path, a.cc, a.srcdir,
                                                     leaves, protos):
            run(name, domain, make)
    tmp.cleanup()

    total = time.perf_counter() - t_all
    bad = [r for r in rows if r['status'] == 'unproven' and r['leaf'] not in gaps]
    gapped = [r for r in rows if r['status'] == 'unproven' and r['leaf'] in gaps]
    proven = sum(r['status'] == 'proven-ir' for r in rows)
    print('prove-formal: %d proven-ir, %d unproven (%d known gaps) of %d, %.1f s'
          % (proven, len(bad) + len(gapped), len(gapped), len(rows), total))
    for r in gapped:
        print('  known gap %s: %s' % (r['leaf'], gaps[r['leaf']]))
    ran = {r['leaf']: r['status'] for r in rows}
    for name in sorted(gaps):
        if ran.get(name) == 'proven-ir':
            print('  note: known gap %s is proven now; take it out of %s' % (name, a.gaps))
        elif name not in ran and not want:
            print('  note: known gap %s names no row of this run' % name)
    for r in bad:
        print('  UNPROVEN %s: %s' % (r['leaf'], r['detail']))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'leaves': [{'leaf': r['leaf'], 'status': r['status'], 'seconds': r['seconds']}
                                  for r in rows], 'seconds': round(total, 3)}, f, indent=1)
            f.write('\n')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
