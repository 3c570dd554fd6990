# SPDX-License-Identifier: BSD-3-Clause
"""LLVM IR text -> functions, blocks and typed instructions: the reading half
of the translator (ir/to_z3.py). Types carry their sizes as the x86-64 data
layout gives them; the module is first checked by llvmlite (it must
parse and verify as LLVM IR); anything this cannot read is Unsupported."""
import re

try:
    import llvmlite.binding as _llvm
except ImportError:  # the driver reports the SKIP
    _llvm = None


class Unsupported(Exception):
    """An instruction, intrinsic or address the translator does not model."""


# ---- types --------------------------------------------------------------

class Ty:
    """kind: 'int' (bits), 'vec' (n, elem), 'arr' (n, elem), 'ptr' (elem),
    'struct' (fields), 'void', 'label'."""

    def __init__(self, kind, bits=0, n=0, elem=None, fields=()):
        self.kind, self.bits, self.n, self.elem, self.fields = kind, bits, n, elem, tuple(fields)

    def __repr__(self):
        if self.kind == 'int':
            return 'i%d' % self.bits
        if self.kind in ('vec', 'arr'):
            return '%s%d x %r' % (self.kind, self.n, self.elem)
        return self.kind


def size_of(t):
    if t.kind == 'int':
        return (t.bits + 7) // 8
    if t.kind == 'ptr':
        return 8
    if t.kind == 'vec':  # a vector of i1 is its bits, packed (LangRef: as its bitcast)
        return t.n * size_of(t.elem) if t.elem.bits % 8 == 0 else (t.n * t.elem.bits + 7) // 8
    if t.kind == 'arr':
        return t.n * size_of(t.elem)
    if t.kind == 'struct':
        off = 0
        for f in t.fields:
            a = align_of(f)
            off = (off + a - 1) // a * a + size_of(f)
        a = align_of(t)
        return (off + a - 1) // a * a
    raise Unsupported('size of %r' % t)


def bits_of(t):
    """The bits of an integer or integer vector (<16 x i1> is 16)."""
    if t.kind == 'int':
        return t.bits
    if t.kind == 'vec' and t.elem.kind == 'int':
        return t.n * t.elem.bits
    raise Unsupported('bits of %r' % t)


def align_of(t):
    if t.kind == 'int':
        return min(8, max(1, size_of(t)))
    if t.kind == 'ptr':
        return 8
    if t.kind == 'vec':
        return min(64, size_of(t))
    if t.kind == 'arr':
        return align_of(t.elem)
    if t.kind == 'struct':
        return max([align_of(f) for f in t.fields] or [1])
    raise Unsupported('alignment of %r' % t)


def field_offset(t, i):
    off = 0
    for k, f in enumerate(t.fields):
        a = align_of(f)
        off = (off + a - 1) // a * a
        if k == i:
            return off
        off += size_of(f)
    raise Unsupported('field %d of %r' % (i, t))


# ---- tokens and parsing -------------------------------------------------

_TOK = re.compile(r'\s*(%[-\w.$]+|@[-\w.$]+|c?"[^"]*"|-?\d+|[A-Za-z_][\w.]*|!\w[\w.]*|#\d+|\.\.\.|[<>\[\]{}(),*=:])')
# Attributes between a type and its value, or after a call's type.
ATTRS = {'noundef', 'nonnull', 'nocapture', 'readonly', 'readnone', 'writeonly',
          'zeroext', 'signext', 'noalias', 'immarg', 'returned', 'nofree', 'tail',
          'musttail', 'notail', 'fastcc', 'ccc', 'inreg', 'nsw', 'nuw', 'exact',
          'inbounds', 'volatile', 'local_unnamed_addr'}


def tokens(text):
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOK.match(text, pos)
        if not m:
            if text[pos:].strip() == '':
                break
            raise Unsupported('cannot read IR text %r' % text[pos:pos + 40])
        out.append(m.group(1))
        pos = m.end()
    return out


class Parser:
    def __init__(self, toks, named):
        self.t, self.i, self.named = toks, 0, named

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise Unsupported('expected %r, found %r in %s' % (want, tok, ' '.join(self.t)))
        self.i += 1
        return tok

    def skip_attrs(self):
        while True:
            tok = self.peek()
            if tok in ATTRS:
                self.i += 1
            elif tok in ('align', 'dereferenceable', 'dereferenceable_or_null'):
                self.i += 1
                if self.peek() == '(':
                    self.i += 3
                else:
                    self.i += 1
            else:
                return

    def type(self):
        tok = self.take()
        if re.fullmatch(r'i\d+', tok):
            t = Ty('int', bits=int(tok[1:]))
        elif tok == 'void':
            t = Ty('void')
        elif tok == 'label':
            t = Ty('label')
        elif tok == '<':
            n = int(self.take()); self.take('x'); e = self.type(); self.take('>')
            t = Ty('vec', n=n, elem=e)
        elif tok == '[':
            n = int(self.take()); self.take('x'); e = self.type(); self.take(']')
            t = Ty('arr', n=n, elem=e)
        elif tok == '{':
            fields = []
            while self.peek() != '}':
                fields.append(self.type())
                if self.peek() == ',':
                    self.take()
            self.take('}')
            t = Ty('struct', fields=fields)
        elif tok.startswith('%') and tok in self.named:
            t = self.named[tok]
        else:
            raise Unsupported('type %r' % tok)
        while self.peek() == '*':
            self.take()
            t = Ty('ptr', elem=t)
        if self.peek() == '(':  # a function type: only as a call's callee type
            depth = 0
            while True:
                tok = self.take()
                depth += tok == '('
                depth -= tok == ')'
                if depth == 0:
                    break
            while self.peek() == '*':
                self.take()
            t = Ty('ptr', elem=Ty('void'))
        return t

    def value(self, ty):
        """An operand's value text after its type: a name or a constant."""
        tok = self.take()
        if tok.startswith('%') or tok.startswith('@'):
            return ('ref', tok)
        if re.fullmatch(r'-?\d+', tok):
            return ('const', int(tok))
        if tok in ('true', 'false'):
            return ('const', int(tok == 'true'))
        if tok in ('zeroinitializer', 'null'):
            return ('zero',)
        if tok in ('undef', 'poison'):  # both taken as poison: stricter than undef
            return ('poison',)
        if tok == '<':  # <T v, T v, ...>
            lanes = []
            while True:
                et = self.type(); lanes.append(self.value(et))
                if self.take() == '>':
                    break
            return ('vec', lanes)
        raise Unsupported('operand %r' % tok)

    def typed_value(self):
        ty = self.type()
        self.skip_attrs()
        return ty, self.value(ty)


# ---- the module --------------------------------------------------------

class Function:
    def __init__(self, name, ret, params, blocks, order):
        self.name, self.ret, self.params, self.blocks, self.order = name, ret, params, blocks, order


class Module:
    """The functions of one .ll file, by name."""

    def __init__(self, text):
        if _llvm is not None:
            _llvm.initialize()
            _llvm.parse_assembly(text).verify()
        self.named = {}
        for m in re.finditer(r'^(%[-\w.$]+) = type (.*)$', text, re.M):
            self.named[m.group(1)] = Parser(tokens(m.group(2)), self.named).type()
        self.functions = {}
        for m in re.finditer(r'^define [^@]*@([\w.$]+)\(((?:[^()]|\([^()]*\))*)\)[^{]*\{\n(.*?)^\}', text, re.M | re.S):
            self.functions[m.group(1)] = self._function(m.group(0), m.group(1), m.group(2), m.group(3))

    def _function(self, header, name, params_text, body):
        head = Parser(tokens(header.split('@', 1)[0][len('define'):]), self.named)
        head.skip_attrs()
        while head.peek() in ('dso_local', 'internal', 'hidden', 'protected', 'default'):
            head.take()
        head.skip_attrs()
        ret = head.type()
        params = []
        p = Parser(tokens(params_text), self.named)
        while p.peek() is not None:
            ty = p.type(); p.skip_attrs()
            params.append((p.take(), ty))
            if p.peek() == ',':
                p.take()
        blocks, order, cur = {}, [], None
        first = True
        for line in body.split('\n'):
            line = line.split(';', 1)[0].rstrip()
            if not line.strip():
                continue
            lab = re.match(r'^([-\w.$]+):', line)
            if lab:
                cur = '%' + lab.group(1)
                blocks[cur] = []; order.append(cur)
                continue
            if first and cur is None:
                cur = '%' + str(len(params))  # the entry block's implicit number
                blocks[cur] = []; order.append(cur)
            first = False
            blocks[cur].append(line.strip())
        return Function(name, ret, params, blocks, order)
