# SPDX-License-Identifier: BSD-3-Clause
"""The library as glibc's loader leaves it in a process, read from outside
that process. q7pred's loaded-image child (src/tools/probe/image_child.h) loads
it as verify and the probe do (dlopen, RTLD_NOW | RTLD_GLOBAL, in a
process that has libc, libm and the loader), twice, the second time at
another base; between its answers this module reads the child's
/proc/PID/maps, mem, status, task, timers and fd, so what a constructor
did to the process shows however the constructor treats the child's own
code. What it checks, per load:

  - every byte of every segment against the file with its modelled
    relocations applied at that base and with the symbols bound where the
    loader bound them (dlsym/dlvsym in the child): a byte that differs is
    one the proof may not read (a constructor wrote it, or a relocation
    the reader does not apply);
  - each page's permissions and backing: a page the file maps read-only
    but that is writable once loaded, a writable and executable page, a
    page mapped from another file or shared, a code page no longer
    executable;
  - what loading left behind that could change the image later or run
    code between calls: threads, child processes, signal handlers, interval
    and POSIX timers, io_uring/userfaultfd descriptors and AIO rings, the
    x87 control word, MXCSR and EFLAGS.AC changed, fork handlers that
    change the image (a fork's copy read from outside), lookups that
    change it. Any of these makes every leaf unproven, naming it.

Each leaf name's binding is checked against dlsym(handle) and
dlsym(RTLD_DEFAULT) in each load.
"""
import os

from q7prove.elf.child import Load, LoadError, SIGNALS
from q7prove.elf.image import ElfError, PAGE, PF_X
from q7prove.elf import relocs as elf_relocs
from q7prove.machine.memory import FRAME_LIMIT

__all__ = ['LoadedImage', 'LoadError']


class LoadedImage:
    """The library's loaded images, compared with its file, attached to its Image."""

    def __init__(self, img, command, path, leaves, timeout=30.0, preloads=()):
        self.img = img
        queries = {(n, None) for n in leaves}
        for r in img.rel.records:
            if r.sym is not None and r.sym.bind != 0 and r.sym.other & 3 not in (1, 2):
                queries.add((r.sym.name, r.sym.version))
        queries = sorted(queries, key=lambda q: (q[0], q[1] or ''))
        lo, hi = img.span()
        self.loads = [Load(img, command, path, shift, queries, timeout, preloads) for shift in (0, hi - lo)]
        self.problems = []
        for ld in self.loads:
            if ld.garbled:
                self.problems.append(ld.garbled)
        if self.problems:
            self.differs, self.page_problems, self._ranges, self.notes = [], {}, [], {}
            self.bad = set()
            img.load_problem = '; '.join(self.problems)
            return
        self._global_problems()
        self.img.loaded = self
        self.img.rel.resolver = self._binding
        self.page_problems = self._pages()
        self._ranges, self.notes = [], {}
        img.relocs = img.rel.modeled_words()
        img._reloc_at = sorted(img.relocs)
        self.bad, self.differs = self._compare()

    # ---- process-wide facts
    def _global_problems(self):
        p = self.problems
        first, second = self.loads
        if first.base == second.base:
            p.append('the library loaded at the same base (%#x) twice: its relocated words cannot be told from the '
                     "file's" % first.base)
        for ld in self.loads:
            b, a = ld.facts_before, ld.facts_after
            if len(a.tasks) > len(b.tasks):
                p.append('loading left %d threads running besides the caller' % (len(a.tasks) - len(b.tasks)))
            new = (a.children - b.children) | (a.siblings - b.siblings)
            if new:
                p.append('loading left a process running (pid %s)' % ', '.join(sorted(new)))
            new = a.sigcgt & ~b.sigcgt
            if new:
                names = [SIGNALS.get(s, 'signal %d' % s) for s in range(1, 65) if new >> (s - 1) & 1]
                p.append('loading installed a handler for %s' % ', '.join(names))
            for k, name in enumerate(('ITIMER_REAL', 'ITIMER_VIRTUAL', 'ITIMER_PROF')):
                if ld.itimers[k]:
                    p.append('loading armed an interval timer (%s)' % name)
            if a.timers is not None and b.timers is not None and a.timers > b.timers:
                p.append('loading created %d POSIX timer(s)' % (a.timers - b.timers))
            for fd in sorted(a.fds - b.fds):
                if fd.startswith('anon_inode:') and any(k in fd for k in ('io_uring', 'userfaultfd')):
                    p.append('loading opened %s, which can write memory later' % fd)
            if any(m[6].startswith('/[aio]') for m in a.maps):
                p.append('loading set up an AIO ring, which can write memory later')
            names = ('MXCSR', 'the x87 control word', 'EFLAGS.AC')
            for k in range(3):
                if ld.cpu_before[k] != ld.cpu_after[k]:
                    p.append('loading changed %s from %#x to %#x (a proof assumes the ABI\'s value)'
                             % (names[k], ld.cpu_before[k], ld.cpu_after[k]))
            if ld.stack_room < FRAME_LIMIT + 64 * 1024:
                p.append('loading left the stack less room than a leaf\'s frame may take: %d KiB below the loader\'s '
                         'caller could not be touched (a lower RLIMIT_STACK, or a mapping the stack cannot grow past)'
                         % ((FRAME_LIMIT + 64 * 1024) // 1024))
            if ld.lookup_changed:
                p.append('looking its symbols up changed the library at %s' % ld.lookup_changed)
            if ld.fork_changed:
                p.append('a fork changes the library at %s (a fork handler)' % ld.fork_changed)
        self.problems = list(dict.fromkeys(p))

    # ---- pages
    def _pages(self):
        """page vaddr -> (perms, problem or None), from the first load."""
        img, out = self.img, {}
        lo, hi = img.span()
        try:
            st = os.stat(img.path)
            own = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
        except OSError:
            own = None
        for ld in self.loads:
            for mlo, mhi, perms, off, dev, inode, path in ld.facts_after.maps:
                for page in range(max(mlo, ld.base + lo), min(mhi, ld.base + hi), PAGE):
                    v = page - ld.base
                    seg = img.segment_of(v) or img.segment_of(min(v + PAGE - 1, hi - 1))
                    why = None
                    major, minor = (int(x, 16) for x in dev.split(':'))
                    if seg is not None:
                        from_file = seg[3] > 0 and v < seg[0] + seg[3]
                        if perms[3] == 's':
                            why = 'is a shared mapping (%s)' % perms
                        elif inode and own is not None and (major, minor, inode) != own:
                            why = 'is mapped from %s, not from the library' % (path or 'another file')
                        elif not inode and from_file and v + PAGE <= seg[0] + seg[3]:
                            why = 'is anonymous memory where the library\'s file belongs (%s)' % (path or 'replaced')
                        elif 'w' in perms and img.file_readonly(max(v, seg[0]), 1):
                            why = ('is writable once loaded (%s), though the file maps it read-only: made writable '
                                   'while loading' % perms)
                    prev = out.get(v)
                    if prev is None or (why and not prev[1]):
                        out[v] = (perms, why)
                    elif prev[0] != perms and not prev[1]:
                        out[v] = (prev[0], 'has other permissions in another load (%s, %s)' % (prev[0], perms))
        return out

    def _page(self, vaddr):
        return self.page_problems.get(vaddr & ~(PAGE - 1), ('---p', 'is not mapped once loaded'))

    def readonly(self, vaddr, n):
        for page in range(vaddr & ~(PAGE - 1), vaddr + n, PAGE):
            perms = self._page(page)[0]
            if perms[0] != 'r' or perms[1] == 'w':
                return False
        return True

    def executable(self, vaddr):
        return self._page(vaddr)[0][2] == 'x'

    def permissions(self, vaddr):
        """The page's permissions once loaded, as /proc/PID/maps writes them ('r-xp'; '---p' unmapped)."""
        return self._page(vaddr)[0]

    def changed(self):
        """[(lo, hi, why)]: the byte ranges where a load differs from the
        file with its relocations applied (a constructor wrote them, or a
        relocation the reader does not apply)."""
        return [(a, b, self.problem(a, b - a, False)) for a, b in self._ranges]

    # ---- bytes
    def _binding(self, r):
        """Where the loader bound r's symbol in both loads (rel.binding, once
        loaded): the reader's own lookup where the loader's address agrees
        with it, an import where the loader bound it outside the library,
        a mismatch (with the reason) otherwise."""
        img, s = self.img, r.sym
        if s.bind == 0 or s.other & 3 in (1, 2):
            return elf_relocs.own_binding(s)
        img.rel.resolver = None
        try:
            mine = img.rel.binding(r)
        finally:
            img.rel.resolver = self._binding
        lo, hi = img.span()
        results = []
        for ld in self.loads:
            d, _, obj, _ = ld.answers.get((s.name, s.version), (0, 0, '', []))
            if d == 0:
                res = ('zero', None) if s.bind == 2 else ('mismatch', 'the loader does not find %s' % s.name)
            elif ld.base + lo <= d < ld.base + hi:
                if (mine[0] == 'own' and ld.base + mine[1].value == d) or mine[0] == 'ifunc':
                    res = mine
                else:
                    res = ('mismatch', 'the loader binds %s to %s, the ELF reader to %s'
                           % (s.name, img.where(d - ld.base),
                              img.where(mine[1].value) if mine[0] == 'own' else mine[0]))
            elif mine[0] == 'abs' and mine[1] == d:
                res = mine
            else:
                res = ('import', '%s (%s)' % (s.name, obj or 'another object'))
            results.append(res)
        if results[0] != results[1]:
            return ('mismatch', 'the two loads bind %s differently' % s.name)
        return results[0]

    def _predicted(self, ld):
        if getattr(ld, 'predicted', None) is None:
            ld.predicted = self._predict(ld)
        return ld.predicted

    def _predict(self, ld):
        """The span as the file and the modelled relocations give it at ld's base; and the mask of bytes compared."""
        img = self.img
        lo, hi = img.span()
        exp = bytearray(hi - lo)
        mask = bytearray(hi - lo)
        for vaddr, memsz, off, filesz, flags in img.loads:
            exp[vaddr - lo:vaddr - lo + filesz] = img.data[off:off + filesz]
            if not flags & 2 or flags & 1:      # read-only or code: compared whole
                mask[vaddr - lo:vaddr - lo + memsz] = b'\1' * memsz
        for vaddr, memsz, _, _, _ in img.loads if img.relro is not None else ():   # read-only once relocated
            a, b = max(img.relro[0], vaddr), min(img.relro[1], vaddr + memsz)
            if a < b:
                mask[a - lo:b - lo] = b'\1' * (b - a)
        # writable data no proof reads (a read of it is a violation) is not
        # compared: a constructor may set it up as it likes
        for r in img.rel.records:
            if not r.size or r.where < lo or r.where + r.size > hi:    # outside: unmodelled, never read
                continue
            what = self._value(r, ld)
            if what is None:
                mask[r.where - lo:r.where - lo + r.size] = bytes(r.size)
            else:
                exp[r.where - lo:r.where - lo + r.size] = what.to_bytes(r.size, 'little')
                sec = img.section_of(r.where)
                if sec is not None and sec['name'] in ('.got', '.got.plt'):    # a slot a proof may read
                    mask[r.where - lo:r.where - lo + r.size] = b'\1' * r.size
        for lo2, hi2, _ in img.rel.unmodeled:
            a, b = max(lo2, lo), min(hi2, hi)
            if a < b:
                mask[a - lo:b - lo] = bytes(b - a)
        return exp, mask

    def _value(self, r, ld):
        """What the loader writes at r in ld, or None where the prover does not model it."""
        m = (1 << 64) - 1
        if r.type in (elf_relocs.R_RELATIVE, elf_relocs.R_RELATIVE64):
            if r.table == 'DT_RELR':
                return (ld.base + int.from_bytes(self.img.file_bytes(r.where, 8), 'little')) & m
            return (ld.base + r.addend) & m
        if r.type not in (elf_relocs.R_64, elf_relocs.R_GLOB_DAT, elf_relocs.R_JUMP_SLOT) or r.sym is None:
            return None
        how, what = self._binding(r)
        if how == 'own':
            return (ld.base + what.value + r.addend) & m
        if how in ('abs',):
            return (what + r.addend) & m
        if how == 'zero':
            return r.addend & m
        return None     # an import: which of its versions the loader bound does not matter, only that it is
                        # outside the library (_compare checks it)

    def _compare(self):
        """The bytes (vaddrs) where a load differs from the file with its
        relocations applied; and those bytes as ranges for the report."""
        img = self.img
        lo = img.span()[0]
        bad = set()
        self.notes = {}     # a relocated word that differs -> why, where more can be said
        span = img.span()[1] - lo
        for ld in self.loads:
            exp, mask = self._predicted(ld)
            got = ld.mem
            for w, r in img.relocs.items():      # an import's slot: anywhere but in the library
                if r.target is None and r.value is None and lo <= w and w + 8 <= lo + span:
                    v = int.from_bytes(got[w - lo:w - lo + 8], 'little')
                    if ld.base + lo <= v < ld.base + lo + span:
                        bad.update(range(w, w + 8))
                        self.notes[w] = ('the slot of %s at %s holds the library\'s own %s, but dlsym finds %s '
                                         'first in %s: which one a call binds depends on when it binds'
                                         % (r.sym.split(' (')[0], img.where(w), img.where(v - ld.base),
                                            r.sym.split(' (')[0],
                                            r.sym.split(' (', 1)[1].rstrip(')') if ' (' in r.sym else 'another '
                                            'object'))
            for start in range(0, len(exp), PAGE):
                a, b = exp[start:start + PAGE], got[start:start + PAGE]
                if a == b or not any(mask[start:start + PAGE]):
                    continue
                if (start + lo) not in ld.readable_pages:
                    continue
                for i in range(len(a)):
                    if mask[start + i] and a[i] != b[i]:
                        bad.add(lo + start + i)
        ranges = []
        for v in sorted(bad):
            if ranges and ranges[-1][1] == v:
                ranges[-1][1] = v + 1
            else:
                ranges.append([v, v + 1])
        first = self.loads[0]
        exp, _ = self._predicted(first)
        differs = []
        for a, b in ranges:
            differs.append({'at': '%#x' % a, 'where': img.where(a), 'bytes': b - a,
                            'file': bytes(exp[a - lo:a - lo + min(b - a, 16)]).hex(),
                            'loaded': bytes(first.mem[a - lo:a - lo + min(b - a, 16)]).hex()})
        self._ranges = ranges
        return bad, differs

    def bytes_at(self, vaddr, n):
        lo, hi = self.img.span()
        if vaddr < lo or vaddr + n > hi:
            raise ElfError('address %#x is not loaded' % vaddr)
        return bytes(self.loads[0].mem[vaddr - lo:vaddr - lo + n])

    def problem(self, vaddr, n, code):
        img = self.img
        for page in range(vaddr & ~(PAGE - 1), vaddr + n, PAGE):
            perms, why = self._page(page)
            if why:
                return 'the page of %s %s' % (img.where(max(page, vaddr)), why)
            if code and perms[2] == 'x' and perms[1] == 'w':
                return 'the code at %s is in a writable and executable mapping (%s)' % (img.where(vaddr), perms)
            if code and perms[2] != 'x':
                seg = img.segment_of(vaddr)
                if seg is not None and seg[4] & PF_X:
                    return '%s is not executable once loaded (%s): a call there faults' % (img.where(vaddr), perms)
        for a, b in self._ranges:
            if a < vaddr + n and vaddr < b:
                lo = img.span()[0]
                for w in range(a - 7, b):
                    if w in self.notes:
                        return self.notes[w]
                return ('the loaded library differs from the file with its relocations applied at %s (%d bytes: '
                        'file %s, loaded %s; written while loading)'
                        % (img.where(a), b - a, self._file_hex(a, b), bytes(self.loads[0].mem[a - lo:a - lo +
                                                                                            min(b - a, 8)]).hex()))
        if code:
            for w, _ in img.relocated(vaddr, n):
                return 'the code at %s is a relocated word' % img.where(w)
            why = img.rel.unmodeled_problem(vaddr, n)
            if why:
                return why
        return None

    def _file_hex(self, a, b):
        exp, _ = self._predicted(self.loads[0])
        lo = self.img.span()[0]
        return bytes(exp[a - lo:a - lo + min(b - a, 8)]).hex()

    def stable_prefix(self, vaddr, n, code):
        for i in range(n):
            if self.problem(vaddr + i, 1, code):
                return i
        return n

    # ---- leaves
    def leaf_problem(self, name, sym):
        """Why dlsym and the reader disagree on name's address, or None."""
        img = self.img
        for ld in self.loads:
            d, o, obj, _ = ld.answers.get((name, None), (0, 0, '', []))
            if sym is None:
                if o or d:
                    return ('the library does not define %s, yet dlsym finds it in %s' % (name, obj or 'another '
                                                                                          'object'))
                continue
            if o != ld.base + sym.value:
                return ('dlsym binds %s to %s, the ELF reader to %s' % (
                    name, img.where(o - ld.base) if ld.base <= o < ld.base + img.span()[1] else '%#x' % o,
                    img.where(sym.value)))
            if d != o:
                return ('%s is defined first by %s, loaded before the library: a program linked against the '
                        'library calls that one' % (name, obj or 'another object'))
        return None

    def definers(self, sym):
        """The loaded objects besides the library that define sym's name
        (in either load): where a call bound lazily may bind instead, in a
        process that loaded the library without RTLD_GLOBAL."""
        out = []
        for ld in self.loads:
            for o in ld.answers.get((sym.name, sym.version), (0, 0, '', []))[3]:
                if o not in out:
                    out.append(o)
        return out

    def report(self):
        """The header line's "image" member (docs/report-format.md)."""
        return {'loads': len(self.loads), 'bases': ['%#x' % ld.base for ld in self.loads if hasattr(ld, 'base')],
                'differing_bytes': len(self.bad), 'differs': self.differs[:16],
                'unmodeled': [{'at': '%#x' % lo, 'where': self.img.where(lo), 'bytes': hi - lo, 'why': why}
                              for lo, hi, why in self.img.rel.unmodeled[:16]],
                'problems': self.problems}


def attach(image, loader, path, symbols, preloads=()):
    """image's loaded report from the loader child (`loader`, run after the
    words of $Q7PRED_EMULATOR as q7pred runs its own children) for the
    symbols a proof binds; without a loader, why nothing can be proven."""
    if loader:
        command = os.environ.get('Q7PRED_EMULATOR', '').split() + [loader]
        image.loaded_report = LoadedImage(image, command, path, symbols, preloads=preloads).report()
    else:
        image.load_problem = ('the library was not loaded (no --loader): the proof would read the file, not '
                              'what the loader makes of it')
