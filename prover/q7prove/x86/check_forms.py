# SPDX-License-Identifier: BSD-3-Clause
"""The forms x86/check.py runs for the models of x86/bitmanip.py,
x86/vector.py and x86/avx512.py: each instruction at each width and
operand kind it is modelled for, with the CPU features it needs (a form
this CPU cannot run is listed, not run). forms(Form, m) -> [Form]; m(w,
disp) is check.py's memory operand of w bits at [rsi + disp].
"""


# QEMU 5 (unicorn 2.0.1) gets bextr's long fields, blsi's CF, bzhi and pdep/pext
# wrong: those run on the CPU alone
def bitmanip(add, m):
    for w, r in ((32, ('eax', 'ecx', 'edx', 'r9d')), (64, ('rax', 'rcx', 'rdx', 'r9'))):
        a, b, c, d = r
        add('andn %s, %s, %s' % (a, b, c), needs=['bmi1'])
        add('andn %s, %s, %s' % (d, b, m(w)), needs=['bmi1'])
        add('bextr %s, %s, %s' % (a, b, c), needs=['bmi1'], pool={'rcx': 'bextr'}, unicorn=False)
        add('bextr %s, %s, %s' % (a, m(w), c), needs=['bmi1'], pool={'rcx': 'bextr'}, unicorn=False)
        for op in ('blsi', 'blsmsk', 'blsr'):
            add('%s %s, %s' % (op, a, c), needs=['bmi1'], unicorn=op != 'blsi')
            add('%s %s, %s' % (op, d, m(w)), needs=['bmi1'], unicorn=op != 'blsi')
        add('bzhi %s, %s, %s' % (a, b, c), needs=['bmi2'], pool={'rcx': 'count'}, unicorn=False)
        add('bzhi %s, %s, %s' % (d, m(w), c), needs=['bmi2'], pool={'rcx': 'count'}, unicorn=False)
        for op in ('pdep', 'pext'):
            add('%s %s, %s, %s' % (op, a, b, c), needs=['bmi2'], unicorn=False)
            add('%s %s, %s, %s' % (op, d, b, m(w)), needs=['bmi2'], unicorn=False)
        for n in (0, 1, 13, w - 1):
            add('rorx %s, %s, %d' % (a, b, n), needs=['bmi2'])
        add('rorx %s, %s, 7' % (d, m(w)), needs=['bmi2'])
        for op in ('sarx', 'shlx', 'shrx'):
            add('%s %s, %s, %s' % (op, a, b, c), needs=['bmi2'], pool={'rcx': 'count'})
            add('%s %s, %s, %s' % (op, d, m(w), c), needs=['bmi2'], pool={'rcx': 'count'})
        add('mulx %s, %s, %s' % (a, b, c), needs=['bmi2'])
        add('mulx %s, %s, %s' % (d, b, m(w)), needs=['bmi2'])
        add('mulx %s, %s, %s' % (a, a, c), needs=['bmi2'])


def forms(Form, m):
    out = []

    def add(*a, **k):
        out.append(Form(*a, **k))
    bitmanip(add, m)
    return out
