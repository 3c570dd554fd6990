#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""make show LEAF=NAME: one leaf's C as the compiler sees it.

The leaf's row of include/q7pred_leaves.def, then, cut out of the
preprocessed sources (the compile command of the library, -E -P): its
exported wrapper module__xdref_NAME (src/lib/abi/xdref.c), its semantics
q7_sem_NAME and every function of the translation unit they call, in call
order (the model's q7m_ helpers, through the q7l_ names of leaf_sem.h), its
word-layout entry q7_eval_NAME and its record in the registry
(src/lib/abi/registry.c). Formatted by clang-format with the tree's
.clang-format when there is one (--format clang-format), else by a small
formatter of its own (--format simple: a statement per line, four columns
per brace).

  show_leaf.py --cc "cc FLAGS" [--srcdir DIR] [--format auto|clang-format|simple] NAME
Exit 0; 2 for a usage error or a leaf the table does not have.
"""
import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

IDENT = re.compile(r'[A-Za-z_]\w*')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case', 'default',
            '_Static_assert', '_Alignof', '_Generic', '__attribute__', '__builtin_expect'}


def fail(msg, code=2):
    print('make show: ' + msg, file=sys.stderr)
    sys.exit(code)


def leaf_rows(srcdir):
    """The table's rows, name -> (line number, row text)."""
    rows = {}
    path = os.path.join(srcdir, 'include', 'q7pred_leaves.def')
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'\s*LEAF\((\w+),', line)
            if m:
                rows[m.group(1)] = (n, line.strip())
    return rows


def preprocess(cc, srcdir, source):
    cmd = shlex.split(cc) + ['-E', '-P', source]
    r = subprocess.run(cmd, cwd=srcdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        fail('preprocessing %s failed: %s' % (source, r.stderr.strip()[:400]), 1)
    return r.stdout


def matching(text, i, open_ch, close_ch):
    """The index just past the bracket that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        c = text[j]
        if c == '"' or c == "'":      # skip a literal
            k = j + 1
            while k < len(text) and text[k] != c:
                k += 2 if text[k] == '\\' else 1
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def definitions(text):
    """Every function defined in the text: name -> its definition."""
    defs = {}
    for m in re.finditer(r'([A-Za-z_]\w*)\s*\(', text):
        name = m.group(1)
        if name in KEYWORDS or name in defs:
            continue
        close = matching(text, m.end() - 1, '(', ')')
        rest = text[close:close + 400]
        body = re.match(r'\s*(__attribute__\s*\(\(.*?\)\)\s*)*\{', rest)
        if not body:
            continue
        start = text.rfind(';', 0, m.start())
        start = max(start, text.rfind('}', 0, m.start())) + 1
        end = matching(text, close + body.end() - 1, '{', '}')
        defs[name] = text[start:end].strip()
    return defs


def body_of(definition):
    return definition[definition.index('{'):]


def without_unused_aliases(definition):
    """leaf_sem.h names every operation inside each semantics as a local
    constant pointer, ret (*const q7_x) params = q7l_x; (void)q7_x;: the
    ones the semantics does not call are left out."""
    alias = re.compile(r'[^;{}]*\(\s*\*\s*const\s+(q7_\w+)\s*\)\s*\([^;]*?\)\s*=\s*q7l_\w+\s*;\s*\(void\)\s*\1\s*;')
    used = set()
    for m in alias.finditer(definition):
        rest = definition[:m.start()] + definition[m.end():]
        if re.search(r'\b%s\s*\(' % re.escape(m.group(1)), rest):
            used.add(m.group(1))
    return alias.sub(lambda m: m.group(0) if m.group(1) in used else '', definition)


def callees(definition, defs):
    """The functions of the text a definition calls, in order (an alias of
    leaf_sem.h counts as a call of its q7l_ function)."""
    out = []
    body = body_of(definition)
    for m in re.finditer(r'\b(q7l_\w+)\b|\b([A-Za-z_]\w*)\s*\(', body):
        name = m.group(1) or m.group(2)
        if name in defs and name not in out:
            out.append(name)
    return out


def registry_row(text, leaf):
    m = re.search(r'\{\s*Q7_LEAF_%s\b|\{\s*\w+\s*,\s*"%s"\s*,' % (re.escape(leaf), re.escape(leaf)), text)
    if not m:
        m = re.search(r'"%s"\s*,\s*"module__xdref_%s"' % (re.escape(leaf), re.escape(leaf)), text)
        if not m:
            return None
    start = text.rfind('{', 0, m.start() + 1)
    return text[start:matching(text, start, '{', '}')] + ','


def simple_format(text):
    """A statement per line, four columns per open brace; a for's header
    and a parenthesised list stay on one line; comments as they are."""
    pieces = re.split(r'(/\*.*?\*/\n?)', text, flags=re.S)
    return ''.join(p if p.startswith('/*') else simple_format_code(p) for p in pieces if p.strip())


def simple_format_code(code):
    out, line, depth, paren = [], '', 0, 0
    i = 0
    code = re.sub(r'\s+', ' ', code)

    def flush():
        nonlocal line
        if line.strip():
            out.append('    ' * depth + line.strip())
        line = ''

    while i < len(code):
        c = code[i]
        if c in '"\'':
            j = i + 1
            while j < len(code) and code[j] != c:
                j += 2 if code[j] == '\\' else 1
            line += code[i:j + 1]
            i = j + 1
            continue
        if c == '(':
            paren += 1
        elif c == ')':
            paren -= 1
        if c == '{' and paren == 0:
            line += ' {'
            flush()
            depth += 1
        elif c == '}' and paren == 0:
            flush()
            depth = max(depth - 1, 0)
            line = '}'
            if code[i + 1:i + 2] not in (',', ';'):
                flush()
        elif c == ';' and paren == 0:
            line += ';'
            flush()
        else:
            line += c
        i += 1
    flush()
    return ''.join(wrap(tidy(l)) for l in out)


def tidy(line):
    """The preprocessor's spacing made the tree's: no space before a comma,
    a semicolon or a call's parenthesis, one before a brace."""
    line = re.sub(r'\s+([,;])', r'\1', line)
    line = re.sub(r'\s+\{$', ' {', line)
    return re.sub(r'\b(\w+) \(', lambda m: m.group(0) if m.group(1) in KEYWORDS else m.group(1) + '(', line)


def wrap(line, width=100):
    """A line longer than width broken after commas, the rest indented
    eight columns past it."""
    indent = re.match(r' *', line).group(0)
    out = ''
    while len(line) > width:
        floor = len(indent) + 8
        cut = line.rfind(', ', 0, width) + 1             # after a comma,
        if cut <= floor:
            cut = line.rfind('(', 0, width) + 1          # else after a parenthesis,
        if cut <= floor:
            cut = line.rfind(' ', 0, width)              # else at a space,
        if cut <= floor:
            cut = line.find(', ', width) + 1             # else at the first comma that there is
        if cut <= floor:
            break
        out += line[:cut].rstrip() + '\n'
        line = indent + '        ' + line[cut:].lstrip()
    return out + line + '\n'


def clang_format(code, srcdir):
    exe = shutil.which('clang-format')
    if not exe:
        return None
    style = os.path.join(srcdir, '.clang-format')
    args = [exe, '--assume-filename=show.c'] + (['--style=file'] if os.path.exists(style) else [])
    r = subprocess.run(args, input=code, cwd=srcdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.stdout if r.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser(prog='make show', description='one leaf\'s generated C, readable')
    ap.add_argument('--cc', required=True, help='the compile command of the library, without -c')
    ap.add_argument('--srcdir', default='.')
    ap.add_argument('--format', choices=('auto', 'clang-format', 'simple'), default='auto')
    ap.add_argument('leaf', nargs='?')
    a = ap.parse_args()
    if not a.leaf:
        fail('name a leaf: make show LEAF=<suffix> (q7pred list shows them)')
    rows = leaf_rows(a.srcdir)
    if a.leaf not in rows:
        near = difflib.get_close_matches(a.leaf, list(rows), n=3)
        fail("no leaf '%s' in include/q7pred_leaves.def%s" % (
            a.leaf, ' (nearest: %s)' % ', '.join(near) if near else ''))
    line, row = rows[a.leaf]

    abi = preprocess(a.cc, a.srcdir, 'src/lib/abi/xdref.c')
    reg = preprocess(a.cc, a.srcdir, 'src/lib/abi/registry.c')
    abi_defs, reg_defs = definitions(abi), definitions(reg)
    wrapper = 'module__xdref_' + a.leaf
    if wrapper not in abi_defs:
        fail('%s not found in the preprocessed src/lib/abi/xdref.c' % wrapper, 1)

    # the wrapper, then what it calls, depth first, each once
    parts, seen = [], set()

    def walk(name, defs):
        if name in seen:
            return
        seen.add(name)
        d = without_unused_aliases(defs[name])
        parts.append((name, d))
        for callee in callees(d, defs):
            walk(callee, defs)

    walk(wrapper, abi_defs)
    sections = ['/* %s: include/q7pred_leaves.def:%d */\n/* %s */\n' % (a.leaf, line, row.replace('*/', '* /'))]
    sections.append('/* The exported leaf (src/lib/abi/xdref.c), then every function it reaches, as compiled\n'
                    ' * (leaf_sem.h\'s unused operation names left out). */\n')
    sections += [d + '\n' for _, d in parts]
    evalname = 'q7_eval_' + a.leaf
    record = registry_row(reg, a.leaf)
    sections.append('/* Its registry record (src/lib/abi/registry.c), and the word-layout entry it names. */\n')
    if record is None:
        fail('the registry record of %s not found in the preprocessed src/lib/abi/registry.c' % a.leaf, 1)
    sections.append('static const q7_leaf row = %s;\n' % record.rstrip(','))
    if evalname in reg_defs:
        sections.append(without_unused_aliases(reg_defs[evalname]) + '\n')

    code = '\n'.join(sections)
    text = None
    if a.format in ('auto', 'clang-format'):
        text = clang_format(code, a.srcdir)
        if text is None and a.format == 'clang-format':
            fail('clang-format is not installed (apt-get install clang-format)', 1)
    if text is None:
        text = simple_format(code)
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
