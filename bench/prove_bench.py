# SPDX-License-Identifier: BSD-3-Clause
"""What the binary proof's cross-checks cost: `q7pred prove` as users run
it (the loaded image, objdump, the native check and cvc5 after z3) timed
side by side with z3 alone on the same leaves (the prover's
--timing-baseline, which never proves anything), in turns, and the same
proof on one core. With --all, the whole library's proof
(`q7pred prove --all`, in the first round only: it takes minutes) against
the 86 leaves' on one core too.

usage: prove_bench.py --q7pred BIN --lib LIB [--python PY] [--rounds N] [--all] [--json OUT]

Each run's verdicts are checked before its time counts: the proof must
prove every leaf (every function with an obligation, under --all), the
baseline must have z3 prove each one. Exit 1 when a run does not.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def one_core():
    """Pin the child to the first core this process may use."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def timed(argv, env=None, pin=False):
    t0 = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                       preexec_fn=one_core if pin else None)
    return time.monotonic() - t0, r


def statuses(report):
    """status -> count over a `q7pred prove --json` report's leaves and functions."""
    counts = {}
    for key in ('leaves', 'functions'):
        for row in report.get(key, []):
            counts[row['status']] = counts.get(row['status'], 0) + 1
    return counts


def main():
    ap = argparse.ArgumentParser(prog='prove_bench.py')
    ap.add_argument('--q7pred', required=True)
    ap.add_argument('--lib', required=True)
    ap.add_argument('--python', default=sys.executable)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--all', action='store_true', help='time the whole library\'s proof too')
    ap.add_argument('--json', help='write the times and ratios here')
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error('--rounds: at least 1')
    prover = os.path.join(os.path.dirname(HERE), 'prover')
    env = dict(os.environ, PYTHONPATH=prover + os.pathsep + os.environ.get('PYTHONPATH', ''))
    with tempfile.TemporaryDirectory(prefix='q7prove-bench.') as tmp:
        table = os.path.join(tmp, 'table.json')
        r = subprocess.run([a.q7pred, 'prove', '--lib', a.lib, '--write-table', table], capture_output=True,
                           text=True)
        if r.returncode != 0 or not os.path.exists(table):
            sys.exit('prove_bench: q7pred prove --write-table failed: %s' % (r.stderr.strip() or r.returncode))
        with open(table) as f:
            nleaves = len(json.load(f)['leaves'])
        runs = {
            'prove': ([a.q7pred, 'prove', '--lib', a.lib, '--json', os.path.join(tmp, 'p.json'), '--quiet'], False),
            'prove, one core': ([a.q7pred, 'prove', '--lib', a.lib, '--json', os.path.join(tmp, 'p1.json'),
                                 '--quiet'], True),
            'z3 alone': ([a.python, '-m', 'q7prove.binary', '--lib', a.lib, '--table', table,
                          '--timing-baseline'], False),
            'z3 alone, one core': ([a.python, '-m', 'q7prove.binary', '--lib', a.lib, '--table', table,
                                    '--timing-baseline'], True),
        }
        if a.all:
            runs['prove --all, one core'] = ([a.q7pred, 'prove', '--all', '--lib', a.lib, '--json',
                                             os.path.join(tmp, 'pa.json'), '--quiet'], True)
        times = {name: [] for name in runs}
        for n in range(a.rounds):
            for name, (argv, pin) in runs.items():     # in turns: the machine's load falls on every row alike
                if n and name == 'prove --all, one core':
                    continue                           # minutes: once
                secs, r = timed(argv, env, pin)
                check(name, argv, r, nleaves)
                times[name].append(secs)
    med = {name: statistics.median(t) for name, t in times.items()}
    rows = [('every cross-check / z3 alone, all cores', med['prove'] / med['z3 alone'], '<= 3x'),
            ('every cross-check / z3 alone, one core', med['prove, one core'] / med['z3 alone, one core'],
             '(for scale)')]
    if a.all:
        rows.append(('whole library / 86 leaves, one core', med['prove --all, one core'] / med['prove, one core'],
                     '(for scale)'))
    print('binary proof of %s, median of %d rounds in turns (wall seconds):' % (a.lib, a.rounds))
    for name in runs:
        goal = ' (goal <= 60 s)' if name == 'prove, one core' else ''
        print('  %-24s %7.2f s   [%s]%s' % (name, med[name], ', '.join('%.2f' % t for t in times[name]), goal))
    print('  ratios:')
    for what, x, goal in rows:
        print('    %-42s %5.2fx  %s' % (what, x, goal))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'lib': a.lib, 'rounds': a.rounds, 'seconds': times, 'median': med,
                       'ratios': {what: x for what, x, _ in rows}}, f, indent=1)
    return 0


def check(name, argv, r, nleaves):
    """The run proved what it must, else the bench stops: a time of a run that
    failed measures nothing."""
    if r.returncode == 77 or '{"missing"' in r.stdout:
        print('prove_bench: SKIP: the prover needs what this machine lacks: %s' % (r.stdout + r.stderr).strip()[-300:])
        sys.exit(0)
    if name.startswith('z3 alone'):
        rows = [json.loads(l) for l in r.stdout.splitlines() if l.startswith('{')]
        rows = [x for x in rows if 'status' in x]
        unbaselined = [x['leaf'] for x in rows if 'a timing baseline' not in x.get('reason', '')]
        if r.returncode != 0 or len(rows) != nleaves or unbaselined:
            sys.exit('prove_bench: %s: z3 did not prove every leaf (%s): %s' % (
                name, ' '.join(argv), ', '.join(unbaselined[:5]) or r.stderr.strip()[-300:]))
        return
    out = argv[argv.index('--json') + 1]
    try:
        with open(out) as f:
            counts = statuses(json.load(f))
    except (OSError, ValueError) as e:
        sys.exit('prove_bench: %s: no report (%s): %s' % (name, e, r.stderr.strip()[-300:]))
    bad = {s: n for s, n in counts.items() if s not in ('proven-binary', 'no-obligation')}
    if '--all' in argv:
        with open(out) as f:
            rows = json.load(f).get('functions', [])
        short = [x['function'] for x in rows if x['status'] not in ('proven-binary', 'no-obligation')]
        if short or bad or r.returncode != 0:
            sys.exit('prove_bench: %s (%s) did not prove everything: %s' % (name, ' '.join(argv),
                                                                          short[:5] or bad or r.returncode))
        return
    if r.returncode != 0 or bad:
        sys.exit('prove_bench: %s (%s) did not prove everything: %s' % (name, ' '.join(argv), bad or r.returncode))


if __name__ == '__main__':
    sys.exit(main())
