# SPDX-License-Identifier: BSD-3-Clause
"""A large vector program for timing `q7pred exec --stats` (docs/performance.md).

usage: gen_program.py KIND [--count N | --mib M] [--seed S] > prog.q7

KIND
  logic   vbool logic only (andb orb xorb andnotb ornotb notb): the cheapest
          instructions, so the run rate is mostly the dispatch
  mixed   fp16/fp32/int compares, predicated _t compares and vbool logic in
          equal thirds, as a predicate-heavy kernel would issue them
  init    register-setting statements only (lane lists, broadcasts, whole
          values): what the parser spends its time on in a data-heavy file

The program first sets every vector and vbool register it reads, then
emits N instructions (--count, default 100000) or as many as fill M MiB
(--mib). Operands are drawn with a fixed seed, so a given command line
always writes the same file.
"""
import argparse
import random
import sys

LOGIC2 = ["andb", "orb", "xorb", "andnotb", "ornotb"]
CMP = ["oeqnxf16", "oltnxf16", "olenxf16", "unnxf16", "ueqnxf16", "ultnxf16", "ulenxf16",
       "oltn_2xf32", "ulen_2xf32", "eqnx16", "ltnx16", "ltunx16", "lt2nx8", "leun_2x32"]
CMP_T = ["oeqnxf16_t", "oltnxf16_t", "olenxf16_t", "unnxf16_t", "ultnxf16_t",
         "oltn_2xf32_t", "ueqn_2xf32_t", "ulen_2xf32_t"]
FP16 = ["1.0", "-2.5", "0.1", "qnan", "-0.0", "inf", "snan", "65504", "6e-8", "-1.5"]


def preamble(r):
    out = []
    for i in range(32):
        vals = ", ".join(r.choice(FP16) for _ in range(32))
        out.append("v%d = nxf16 %s\n" % (i, vals))
    for i in range(16):
        out.append("vb%d = 0x%016x\n" % (i, r.getrandbits(64)))
    return out


def vb(r):
    return "vb%d" % r.randrange(16)


def v(r):
    return "v%d" % r.randrange(32)


def logic(r):
    if r.randrange(6) == 0:
        return "notb %s, %s\n" % (vb(r), vb(r))
    return "%s %s, %s, %s\n" % (r.choice(LOGIC2), vb(r), vb(r), vb(r))


def mixed(r):
    k = r.randrange(3)
    if k == 0:
        return "%s %s, %s, %s\n" % (r.choice(CMP), vb(r), v(r), v(r))
    if k == 1:
        return "%s %s, %s, %s, %s\n" % (r.choice(CMP_T), vb(r), v(r), v(r), vb(r))
    return logic(r)


def init(r):
    k = r.randrange(3)
    if k == 0:
        return "%s = nxf16 %s\n" % (v(r), ", ".join(r.choice(FP16) for _ in range(32)))
    if k == 1:
        return "%s = n_2x32 all %d\n" % (v(r), r.randrange(-2**31, 2**31))
    return "%s = 0x%016x\n" % (vb(r), r.getrandbits(64))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=["logic", "mixed", "init"])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--count", type=int, default=100000, help="instructions (default 100000)")
    g.add_argument("--mib", type=float, help="instead: fill this many MiB")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    r = random.Random(a.seed)
    gen = {"logic": logic, "mixed": mixed, "init": init}[a.kind]
    out = sys.stdout
    size = 0
    for line in preamble(r):
        out.write(line)
        size += len(line)
    limit = int(a.mib * (1 << 20)) if a.mib is not None else None
    n = 0
    while (n < a.count) if limit is None else True:
        line = gen(r)
        if limit is not None and size + len(line) > limit:
            break
        out.write(line)
        size += len(line)
        n += 1


if __name__ == "__main__":
    main()
