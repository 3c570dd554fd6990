# SPDX-License-Identifier: BSD-3-Clause
"""One load of a library in q7pred's loaded-image child
(src/tools/probe/image_child.h), observed from outside the child: its memory
(/proc/PID/mem, else the child's own copy), its mappings, signal
handlers, threads, child processes, timers and descriptors before and
after loading, the loader's answers for the names asked, and what a fork
leaves in the copy it makes. elf/loaded.py compares it with the file.
"""
import os
import select
import signal
import subprocess
import time

from q7prove.elf.image import PAGE

SIGNALS = {getattr(signal, n): n for n in dir(signal) if n.startswith('SIG') and not n.startswith('SIG_')
           and isinstance(getattr(signal, n), int)}
CHILD_ARG = '--q7pred-image-child'


class LoadError(Exception):
    """The library cannot be loaded here: one line, as verify says it."""


class Garbled(Exception):
    pass


class Child:
    """One loaded-image child and its pipes, every read bounded by a deadline."""

    def __init__(self, command, path, shift, deadline, preloads=()):
        self.deadline = deadline
        lib_fd = None
        for prefix in ('/proc/self/fd/', '/dev/fd/'):
            if path.startswith(prefix) and path[len(prefix):].isdigit():
                lib_fd = int(path[len(prefix):])
                path = '/proc/self/fd/%d' % lib_fd
        self.path = path
        argv = list(command) + [CHILD_ARG, path, 'shift:%d' % shift if shift else 'here'] + list(preloads)
        try:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      pass_fds=(lib_fd,) if lib_fd is not None else ())
        except OSError as e:
            raise LoadError('cannot start the loaded-image child %s: %s' % (argv[0], e.strerror))
        self.buf = b''

    def _fill(self):
        left = self.deadline - time.monotonic()
        if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
            raise TimeoutError()
        chunk = os.read(self.p.stdout.fileno(), 1 << 16)
        if not chunk:
            raise EOFError()
        self.buf += chunk

    def line(self):
        while b'\n' not in self.buf:
            if len(self.buf) > 1 << 16:
                raise Garbled('an answer line longer than 64 KiB')
            self._fill()
        out, self.buf = self.buf.split(b'\n', 1)
        return out.decode('ascii', 'replace').split()

    def raw(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, text):
        try:
            self.p.stdin.write(text.encode('ascii'))
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EOFError()

    def ask(self, text, want):
        self.send(text)
        words = self.line()
        if not words or words[0] != want:
            raise Garbled('asked "%s", answered "%s"' % (text.split()[0], ' '.join(words)[:80]))
        return words

    def end(self):
        try:
            self.p.kill()
        except OSError:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.p.stdin, self.p.stdout):
            try:
                f.close()
            except OSError:
                pass

    def how(self):
        try:
            rc = self.p.wait(timeout=max(0.1, min(5, self.deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            return 'hung'
        return 'exit status %d' % rc if rc >= 0 else SIGNALS.get(-rc, 'signal %d' % -rc)


def _proc(pid, what):
    try:
        with open('/proc/%d/%s' % (pid, what), 'rb') as f:
            return f.read().decode('utf-8', 'replace')
    except OSError:
        return None


class Facts:
    """What a process has that loading may have added, read from outside."""

    def __init__(self, pid):
        status = _proc(pid, 'status') or ''
        field = {l.split(':', 1)[0]: l.split(':', 1)[1].strip() for l in status.splitlines() if ':' in l}
        self.sigcgt = int(field.get('SigCgt', '0'), 16)
        try:
            self.tasks = os.listdir('/proc/%d/task' % pid)
        except OSError:
            self.tasks = []
        self.children = set()
        for t in self.tasks:
            self.children |= set((_proc(pid, 'task/%s/children' % t) or '').split())
        timers = _proc(pid, 'timers')
        self.timers = None if timers is None else sum(l.startswith('ID:') for l in timers.splitlines())
        self.fds = set()
        try:
            for fd in os.listdir('/proc/%d/fd' % pid):
                try:
                    self.fds.add(os.readlink('/proc/%d/fd/%s' % (pid, fd)))
                except OSError:
                    pass
        except OSError:
            pass
        self.maps = parse_maps(_proc(pid, 'maps') or '')
        # a process started as the child's sibling (clone with CLONE_PARENT) is the prover's child
        self.siblings = set()
        for t in os.listdir('/proc/self/task') if os.path.isdir('/proc/self/task') else ():
            self.siblings |= set((_proc(os.getpid(), 'task/%s/children' % t) or '').split())
        self.siblings.discard(str(pid))


def parse_maps(text):
    out = []
    for line in text.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 5:
            continue
        lo, hi = (int(x, 16) for x in parts[0].split('-'))
        out.append((lo, hi, parts[1], int(parts[2], 16), parts[3], int(parts[4]), parts[5] if len(parts) > 5 else ''))
    return out


def _hex(s):
    return s.encode('utf-8', 'surrogateescape').hex() if s else '-'


def _unhex(h):
    return '' if h == '-' else bytes.fromhex(h).decode('utf-8', 'replace')


class Load:
    """One load of the library, observed."""

    def __init__(self, img, command, path, shift, queries, timeout, preloads=()):
        self.img = img
        child = Child(command, path, shift, time.monotonic() + timeout, preloads)
        try:
            self._run(child, queries)
        except TimeoutError:
            raise LoadError("cannot load library '%s': loading it hung (killed after %g s)" % (img.name, timeout))
        except EOFError:
            child.p.stdin.close()
            raise LoadError("cannot load library '%s': its child ended while loading it (%s)"
                            % (img.name, child.how()))
        except (Garbled, ValueError, IndexError) as e:
            self.garbled = 'the loaded-image child answered nonsense (%s)' % e
        finally:
            child.end()
            self._end_leftovers()

    def _end_leftovers(self):
        """Processes loading started (seen as the child's children or the
        prover's), ended with it: nothing the library starts outlives its proof."""
        b, a = getattr(self, 'facts_before', None), getattr(self, 'facts_after', None)
        if a is None or b is None:
            return
        for pid in (a.children - b.children) | (a.siblings - b.siblings):
            try:
                os.kill(int(pid), signal.SIGKILL)
            except (OSError, ValueError):
                pass

    def _run(self, c, queries):
        self.garbled = None
        hello = c.line()
        before = c.line()
        if hello[:1] != ['hello'] or before[:1] != ['before']:
            raise Garbled('no greeting')
        pid = int(hello[1])
        self.cpu_before = [int(x, 16) for x in before[1:4]]
        self.facts_before = Facts(pid)
        c.send('load\n')
        words = c.line()
        if words[:1] == ['error']:
            raise LoadError(_unhex(words[1]).replace(c.path, self.img.name).replace(self.img.path, self.img.name))
        if words[:1] != ['loaded']:
            raise Garbled('no "loaded"')
        self.base = int(words[1], 16)
        after, itimers, stack = c.line(), c.line(), c.line()
        self.cpu_after = [int(x, 16) for x in after[1:4]]
        self.itimers = [int(x) for x in itimers[1:4]]
        if stack[:1] != ['stack'] or len(stack) != 3:
            raise Garbled('no "stack"')
        self.stack_room = int(stack[1]) if stack[2] == '1' else 0    # bytes below the child's frame it could touch
        self.facts_after = Facts(pid)
        lo, hi = self.img.span()
        self.mem, self.readable_pages = self._read_span(c, pid, self.facts_after.maps)
        self.answers = {}
        for name, version in queries:
            w = c.ask('sym %s %s\n' % (_hex(name), _hex(version)), 'sym')
            others = [_unhex(x) for x in w[4].split(',')] if w[4] != '-' else []
            self.answers[(name, version)] = (int(w[1], 16), int(w[2], 16), _unhex(w[3]), others)
        mem2, _ = self._read_span(c, pid, Facts(pid).maps)
        self.lookup_changed = self._first_change(self.mem, mem2)
        forked = int(c.ask('fork\n', 'forked')[1])
        if forked <= 0:
            raise Garbled('the child could not fork')
        fork_mem, _ = self._read_span(None, forked, Facts(forked).maps)
        self.fork_changed = self._first_change(self.mem, fork_mem)
        c.ask('reap %d\n' % forked, 'reaped')
        mem3, _ = self._read_span(c, pid, Facts(pid).maps)
        self.fork_changed = self.fork_changed or self._first_change(self.mem, mem3)
        c.send('quit\n')

    def _read_span(self, c, pid, maps):
        """The span's bytes (rebased: index = vaddr - lo) and which pages were read."""
        lo, hi = self.img.span()
        mem = bytearray(hi - lo)
        pages = set()
        try:
            f = open('/proc/%d/mem' % pid, 'rb', buffering=0)
        except OSError:
            f = None
        try:
            for mlo, mhi, perms, *_ in maps:
                a, b = max(mlo, self.base + lo), min(mhi, self.base + hi)
                if a >= b:
                    continue
                data = None
                if f is not None:
                    try:
                        f.seek(a)
                        data = f.read(b - a)
                    except OSError:
                        data = None
                if (data is None or len(data) != b - a) and c is not None and 'r' in perms:
                    n = int(c.ask('mem %x %x\n' % (a, b - a), 'mem')[1], 16)
                    data = c.raw(n) if n == b - a else None
                if data is None or len(data) != b - a:
                    continue
                mem[a - self.base - lo:b - self.base - lo] = data
                pages.update(range(a - self.base, b - self.base, PAGE))
        finally:
            if f is not None:
                f.close()
        return mem, pages

    def _first_change(self, a, b):
        if a == b:
            return None
        lo = self.img.span()[0]
        k = next(i for i in range(min(len(a), len(b))) if a[i] != b[i])
        return self.img.where(lo + k)
