# SPDX-License-Identifier: BSD-3-Clause
"""The vector level's run-time dispatch, checked over every feature set it
can tell apart: a q7v_ function called first in a process (`in_force`
NULL, the dispatch's caches unread) on each CPU of FEATURE_SETS and each
value of Q7PRED_VEC (ENVS) must reach a kernel its path proof proved for
the same function, and one whose instructions that CPU runs.

The library's own selection code runs, from the function's entry, in
unicorn (the emulator x86/check.py checks the models against), after the
library's constructors, run as the loader runs them on the same feature
set (Emulator: the library at a base a process could give it, its pages
protected as the loader leaves them, anything it cannot model a failed
run): libgcc's __cpu_indicator_init and the library's CPUID read see the
CPUID leaves and XCR0 of the feature set (every `cpuid` and `xgetbv` of
the code is answered by the set), getenv answers Q7PRED_VEC (and no other
variable) and strcmp compares; a call of any other import ends the run
unresolved. The run stops at the first
instruction that is one of the kernels the path proofs reached, or fails
(returned to the caller, ran too long, faulted).

A feature set is a vendor (Intel, AMD), an XCR0 (none: the OS left
CR4.OSXSAVE clear; or what the OS saves: x87+SSE, +AVX, +AVX-512's opmask
and zmm) and each of the CPUID bits the paths'
features come from (AVX, AVX2, BMI2, POPCNT, AVX-512 F/BW/VL/DQ), every
combination that keeps AVX2 with AVX and AVX-512 with AVX2 (IMPLIES: every
CPU made; a hypervisor's CPUID mask can break it, and on AVX2 without AVX
libgcc reports AVX2, so such a CPU would run the AVX2 path: not checked). What the CPU then runs (RUNS) is the Intel SDM's rule: an AVX
or AVX2 instruction needs CPUID's bit, OSXSAVE and XCR0's SSE and AVX
state; an AVX-512 one also XCR0's opmask, upper-zmm and hi16-zmm state.
"""
import itertools
import time

from q7prove.elf.image import DT_INIT, DT_INIT_ARRAY, DT_INIT_ARRAYSZ, PAGE, PF_R, PF_W, PF_X

CPUID_BITS = {   # name: (leaf, subleaf, register, bit)
    'avx': (1, 0, 'ecx', 28), 'popcnt': (1, 0, 'ecx', 23), 'f16c': (1, 0, 'ecx', 29),
    'avx2': (7, 0, 'ebx', 5), 'bmi2': (7, 0, 'ebx', 8), 'bmi1': (7, 0, 'ebx', 3),
    'avx512f': (7, 0, 'ebx', 16), 'avx512dq': (7, 0, 'ebx', 17), 'avx512bw': (7, 0, 'ebx', 30),
    'avx512vl': (7, 0, 'ebx', 31),
}
ALWAYS = {   # present on every CPU of the grid (x86-64 baseline and the SSE levels)
    'sse3': (1, 0, 'ecx', 0), 'ssse3': (1, 0, 'ecx', 9), 'sse4_1': (1, 0, 'ecx', 19), 'sse4_2': (1, 0, 'ecx', 20),
    'cmov': (1, 0, 'edx', 15), 'mmx': (1, 0, 'edx', 23), 'sse': (1, 0, 'edx', 25), 'sse2': (1, 0, 'edx', 26),
}
GRID = ('avx', 'avx2', 'bmi2', 'popcnt', 'avx512f', 'avx512bw', 'avx512vl', 'avx512dq')
XCR0S = (None, 0x3, 0x7, 0xe7)     # None: CR4.OSXSAVE clear (xgetbv faults)
VENDORS = {'Intel': (b'Genu', b'ineI', b'ntel'), 'AMD': (b'Auth', b'enti', b'cAMD')}
ENVS = (None, 'avx512', 'avx2', 'portable', 'reference', '', 'bogus')
ENV_NAMES = ('Q7PRED_VEC',)        # the variables getenv answers (ENVS' values, or unset)
INIT_LIMIT = 1 << 18               # the writable bytes the constructors may change (kept per feature set)
OSXSAVE = 27
STEP_LIMIT = 200000


# a feature's CPUID bit is only ever set with these (every CPU sold: AVX2
# with AVX, AVX-512's subsets with F, F with AVX2); a CPUID a hypervisor
# masks against them (AVX2 without AVX) is outside the grid
IMPLIES = {'avx2': 'avx', 'avx512f': 'avx2', 'avx512bw': 'avx512f', 'avx512vl': 'avx512f', 'avx512dq': 'avx512f'}


def consistent(bits):
    return all(IMPLIES[b] in bits for b in bits if b in IMPLIES)


def feature_sets(full=True):
    """Every (vendor, xcr0, frozenset of GRID bits set) within the
    hierarchy of IMPLIES; full=False: Intel only."""
    out = []
    for vendor in (VENDORS if full else ('Intel',)):
        for xcr0 in XCR0S:
            for bits in itertools.product((0, 1), repeat=len(GRID)):
                on = frozenset(n for n, b in zip(GRID, bits) if b)
                if consistent(on):
                    out.append((vendor, xcr0, on))
    return out


def runs(fs):
    """The /proc/cpuinfo names of what a CPU with feature set fs executes."""
    vendor, xcr0, bits = fs
    out = {'sse', 'sse2', 'sse3', 'ssse3', 'sse4_1', 'sse4_2'}
    out |= {b for b in bits if b in ('popcnt', 'bmi1', 'bmi2')}
    ymm = xcr0 is not None and xcr0 & 0x6 == 0x6
    zmm = ymm and xcr0 & 0xe0 == 0xe0
    if 'avx' in bits and ymm:
        out.add('avx')
        out |= {b for b in bits if b in ('avx2', 'f16c')}
        if zmm:
            out |= {b for b in bits if b.startswith('avx512')}
    return out


def cpuid(fs, leaf, sub):
    """(eax, ebx, ecx, edx) of CPUID(leaf, sub) on feature set fs."""
    vendor, xcr0, bits = fs
    regs = {'eax': 0, 'ebx': 0, 'ecx': 0, 'edx': 0}
    if leaf == 0:
        b, d, c = VENDORS[vendor]
        regs.update(eax=7, ebx=int.from_bytes(b, 'little'), edx=int.from_bytes(d, 'little'),
                    ecx=int.from_bytes(c, 'little'))
    elif leaf == 0x80000000:
        regs['eax'] = 0x80000001
    elif leaf == 1:
        regs['eax'] = 0x000806c1 if vendor == 'Intel' else 0x00a20f10    # family 6 / 0x19, a real model
    for name, (lf, sl, reg, bit) in list(ALWAYS.items()) + list(CPUID_BITS.items()):
        if (lf, sl) == (leaf, sub if lf == 7 else 0) and (name in ALWAYS or name in bits):
            regs[reg] |= 1 << bit
    if leaf == 1 and xcr0 is not None:
        regs['ecx'] |= 1 << OSXSAVE      # the OS set CR4.OSXSAVE: xgetbv runs
    return regs['eax'], regs['ebx'], regs['ecx'], regs['edx']


def _registers(mu):
    """(read, write, write_many, read_many) of 64-bit registers by unicorn's
    id: the C calls themselves where the binding exposes them (its Python
    layer costs more than the emulation here), else its methods.
    write_many(regs) is a function of the values, in the order of regs,
    that writes them all in one call; read_many(regs) one that reads them."""
    import ctypes
    try:
        from unicorn.unicorn import _uc
        handle = mu._uch
        batch, read_batch = _uc.uc_reg_write_batch, _uc.uc_reg_read_batch
    except (ImportError, AttributeError):
        def write_many(regs):
            return lambda *values: [mu.reg_write(r, v) for r, v in zip(regs, values)]

        def read_many(regs):
            return lambda: [mu.reg_read(r) for r in regs]
        return mu.reg_read, mu.reg_write, write_many, read_many
    cell = ctypes.c_uint64()
    ref = ctypes.byref(cell)

    def get(r):
        cell.value = 0         # a narrower register fills only its own bytes of the cell
        if _uc.uc_reg_read(handle, r, ref):
            return mu.reg_read(r)     # the binding's own call names the error
        return cell.value

    out = ctypes.c_uint64()
    out_ref = ctypes.byref(out)

    def put(r, v):
        out.value = v
        if _uc.uc_reg_write(handle, r, out_ref):
            mu.reg_write(r, v)

    def cells_of(regs):
        """The C arrays of a batch call: register ids, one 64-bit cell each, pointers to the cells."""
        n = len(regs)
        values = (ctypes.c_uint64 * n)()
        return n, (ctypes.c_int * n)(*regs), values, \
            (ctypes.c_void_p * n)(*[ctypes.addressof(values) + 8 * k for k in range(n)])

    def read_many(regs):
        n, ids, cells, ptrs = cells_of(regs)
        zeros = [0] * n

        def read():
            cells[:] = zeros      # a narrower register fills only its own bytes of its cell
            if read_batch(handle, ids, ptrs, n):
                return [mu.reg_read(r) for r in regs]     # the binding's own call names the error
            return cells[:]
        return read

    def write_many(regs):
        n, ids, cells, ptrs = cells_of(regs)

        def write(*values):
            cells[:] = values
            if batch(handle, ids, ptrs, n):
                for r, v in zip(regs, values):
                    mu.reg_write(r, v)     # the binding's own call names the error
        return write
    return get, put, write_many, read_many


# where the emulator loads the library: a base a process could have (the
# loader never maps a library at 0), so that a read near NULL faults as in
# the process instead of reading the library's first page
BASE = 0x7a5500000000
SPAN_LIMIT = 1 << 28       # the largest library the emulator maps (a page at a time: bounded work)


def pages(image):
    """[(address, size, unicorn permissions)]: the library's pages as
    glibc's loader leaves them once it has relocated it. Each PT_LOAD's
    pages get its flags (a page two segments share, the later one's: its
    mmap is the later), readable wherever anything is allowed (x86 pages
    are); the pages PT_GNU_RELRO covers, rounded down at both ends as
    _dl_protect_relro rounds them, read-only; a gap between segments
    unmapped. A write to code or to relocated read-only data, or a jump
    into data, then faults here as it does natively (no-execute pages).
    With the loaded image attached, a page keeps only what it allows in the
    process too: where the two differ, the run faults where either would."""
    import unicorn as uc
    perm = {}
    for vaddr, memsz, off, filesz, flags in image.loads:
        p = (uc.UC_PROT_READ if flags & (PF_R | PF_W | PF_X) else 0) | \
            (uc.UC_PROT_WRITE if flags & PF_W else 0) | (uc.UC_PROT_EXEC if flags & PF_X else 0)
        for a in range(vaddr & ~(PAGE - 1), (vaddr + memsz + PAGE - 1) & ~(PAGE - 1), PAGE):
            perm[a] = p
    if image.relro is not None:
        for a in range(image.relro[0] & ~(PAGE - 1), image.relro[1] & ~(PAGE - 1), PAGE):
            if a in perm:
                perm[a] = uc.UC_PROT_READ
    loaded = getattr(image, 'loaded', None)
    if loaded is not None:
        for a in perm:
            r, w, x = loaded.permissions(a)[:3]
            perm[a] &= (uc.UC_PROT_READ if r == 'r' else 0) | (uc.UC_PROT_WRITE if w == 'w' else 0) | \
                (uc.UC_PROT_EXEC if x == 'x' else 0)
    out = []
    for a in sorted(perm):
        if out and out[-1][0] + out[-1][1] == a and out[-1][2] == perm[a]:
            out[-1][1] += PAGE
        else:
            out.append([a, PAGE, perm[a]])
    return [tuple(r) for r in out]


class Emulator:
    """The library loaded in unicorn at BASE, relocated there, its pages
    protected as the loader leaves them (pages()). Its callers name the
    library's addresses as the file does (link time: entries, stops, what a
    run reached); values a run holds or is given (arguments, registers,
    memory read) are the process's, BASE included."""

    STUBS = 0x7f0000000000
    DATA = 0x7e0000000000
    STACK = 0x7d0000000000
    TLS = 0x7b0000000000
    CANARY = 0x2f8a61c3b95d4e00      # glibc's canary has a zero low byte

    def __init__(self, image):
        """ValueError where the library spans more than SPAN_LIMIT bytes."""
        import unicorn as uc
        from unicorn import x86_const as X
        lo, hi = image.span()
        if hi - lo > SPAN_LIMIT:
            raise ValueError('the library spans %#x bytes, more than the dispatch check maps (%#x)'
                             % (hi - lo, SPAN_LIMIT))
        self.uc_mod, self.X, self.image = uc, X, image
        self.mu = mu = uc.Uc(uc.UC_ARCH_X86, uc.UC_MODE_64)
        self.get, self.put, write_many, read_many = _registers(mu)
        self.cpuid_query = read_many((X.UC_X86_REG_EAX, X.UC_X86_REG_ECX))
        self.put_cpuid = write_many((X.UC_X86_REG_RAX, X.UC_X86_REG_RBX, X.UC_X86_REG_RCX, X.UC_X86_REG_RDX,
                                     X.UC_X86_REG_RIP))
        self.contexts = {}       # the registers a run starts from, by its arguments' values
        self.saved = [(n, getattr(X, 'UC_X86_REG_' + n.upper()), 0x5a5a0000 + k) for k, n in enumerate(self.CALLEE_SAVED)]
        self.sp = self.STACK - 0x1008
        self.writable = []      # what a run may change, restored before the next: the writable pages
        for lo, n, perms in pages(image):
            mu.mem_map(BASE + lo, n, perms)
            if perms & uc.UC_PROT_WRITE:
                self.writable.append((BASE + lo, n))
        for vaddr, memsz, off, filesz, flags in image.loads:
            mu.mem_write(BASE + vaddr, image.file_bytes(vaddr, memsz))     # the host's writes pass any protection
        self.imports = {}
        for where, r in image.relocs.items():
            if r.value is not None:
                v = r.value
            elif r.target is not None:
                v = BASE + r.target + r.addend
            else:
                v = self.imports.setdefault(r.sym or '?', self.STUBS + 16 * len(self.imports))
            mu.mem_write(BASE + where, (v & (1 << 64) - 1).to_bytes(8, 'little'))
        self.stub_names = {v: n for n, v in self.imports.items()}
        # run, never read: a pointer to an import's data (a slot bound to a stub here) read as data fails
        mu.mem_map(self.STUBS, 0x10000, uc.UC_PROT_EXEC)
        mu.mem_write(self.STUBS, b'\xc3' * 0x10000)
        mu.mem_map(self.DATA, 0x10000, uc.UC_PROT_READ | uc.UC_PROT_WRITE)
        mu.mem_map(self.STACK - 0x100000, 0x100000, uc.UC_PROT_READ | uc.UC_PROT_WRITE)
        # the thread's TLS block as %fs points at it: its own address at 0 and the stack protector's canary at 0x28
        mu.mem_map(self.TLS, 0x2000, uc.UC_PROT_READ | uc.UC_PROT_WRITE)
        self.tls0 = self.TLS.to_bytes(8, 'little') + bytes(0x20) + self.CANARY.to_bytes(8, 'little') + \
            bytes(0x2000 - 0x30)
        self.snapshot = [(a, bytes(mu.mem_read(a, n))) for a, n in self.writable]
        self.initialized = {}    # (feature set, environment or None): the writable pages as the constructors left them
        # the instructions the feature set answers: cpuid (0f a2) and xgetbv (0f 01 d0)
        self.special = {}
        for vaddr, memsz, off, filesz, flags in image.loads:
            if not flags & 1:
                continue
            code = image.file_bytes(vaddr, filesz)
            for pat, kind in ((b'\x0f\xa2', 'cpuid'), (b'\x0f\x01\xd0', 'xgetbv')):
                k = code.find(pat)
                while k >= 0:
                    self.special[BASE + vaddr + k] = (kind, len(pat))
                    k = code.find(pat, k + 1)
        for a in self.special:
            mu.hook_add(uc.UC_HOOK_CODE, self._special, begin=a, end=a)
        # bytes the file does not give as the process holds them: a run that reads or runs one fails
        loaded = getattr(image, 'loaded', None)
        self.unread = (loaded.changed() if loaded is not None else []) + list(getattr(image.rel, 'unmodeled', ()))
        for lo, hi, why in self.unread:
            mu.hook_add(uc.UC_HOOK_MEM_READ, self._unread, begin=BASE + lo, end=BASE + hi - 1)
            mu.hook_add(uc.UC_HOOK_CODE, self._unread_code, begin=BASE + lo - 15, end=BASE + hi - 1)
        mu.hook_add(uc.UC_HOOK_CODE, self._stub, begin=self.STUBS, end=self.STUBS + 0xffff)
        # the kernel's entries and port I/O, which unicorn runs as at ring 0 (syscall a no-op): a failed run
        for ins in ('SYSCALL', 'SYSENTER', 'IN', 'OUT'):
            mu.hook_add(uc.UC_HOOK_INSN, self._kernel_insn, ins.lower(), 1, 0, getattr(X, 'UC_X86_INS_' + ins))
        self.stops = set()
        self.hooked_stops = {}       # address -> the hook's handle
        self.answers = {}        # (feature set, leaf, subleaf): what cpuid answers

    def _special(self, mu, addr, size, _):
        X = self.X
        kind, n = self.special[addr]      # a hook runs where an instruction starts: the pattern is one
        if kind == 'cpuid':
            leaf, sub = self.cpuid_query()
            key = (self.fs, leaf, sub)
            answer = self.answers.get(key)
            if answer is None:
                answer = self.answers[key] = cpuid(self.fs, leaf, sub)
            self.put_cpuid(*answer, addr + n)      # the answer and %rip past the instruction, in one call
            return
        if self.fs[1] is None or self.get(X.UC_X86_REG_ECX) != 0:
            self.fail = 'xgetbv at %#x where the feature set leaves it undefined' % (addr - BASE)
            mu.emu_stop()
            return
        self.put(X.UC_X86_REG_RAX, self.fs[1])
        self.put(X.UC_X86_REG_RDX, 0)
        self.put(X.UC_X86_REG_RIP, addr + n)

    def _kernel_insn(self, mu, *args):
        name = args[-1]
        self.fail = 'runs %s at %s, whose effect in a process (the kernel\'s) the dispatch check does not model' % (
            name, self.where(mu.reg_read(self.X.UC_X86_REG_RIP)))
        mu.emu_stop()
        return 0        # what `in` reads (unicorn wants a number), never used: the run has failed

    def _unread_at(self, addr, size):
        addr -= BASE
        for lo, hi, why in self.unread:
            if lo < addr + size and addr < hi:
                self.fail = 'reads %s, which the loaded library holds otherwise than its file (%s)' % (
                    self.image.where(max(lo, addr)), why)
                self.mu.emu_stop()
                return

    def _unread(self, mu, access, addr, size, value, _):
        self._unread_at(addr, size)

    def _unread_code(self, mu, addr, size, _):
        self._unread_at(addr, size)

    def _cstr(self, addr):
        out = bytearray()
        while len(out) < 4096:
            at = addr + len(out)
            chunk = bytes(self.mu.mem_read(at, min(64, 0x1000 - (at & 0xfff))))   # within its page
            end = chunk.find(b'\0')
            if end >= 0:
                return bytes(out + chunk[:end])
            out += chunk
        raise ValueError('unterminated string')

    def _stub(self, mu, addr, size, _):
        X = self.X
        name = self.stub_names.get(addr)
        if addr == self.STUBS + 0xfff0:          # the caller's return address
            if self.stops is None:
                self.reached = 'return'
            else:
                self.fail = 'returns to its caller without reaching a kernel'
            mu.emu_stop()
            return
        base = name.split()[0].split('@')[0] if name else None
        if base == 'getenv':
            key = self._cstr(self.get(X.UC_X86_REG_RDI)).decode('utf-8', 'replace')
            self.env_read.append(key)
            if key not in ENV_NAMES:
                # a process has other variables set than the grid's, with values the check cannot choose
                self.fail = 'reads the environment variable %r, whose value the dispatch check does not choose' % key
                mu.emu_stop()
                return
            val = self.env.get(key)
            if val is None:
                self.put(X.UC_X86_REG_RAX, 0)
            else:
                mu.mem_write(self.DATA + 0x8000, val.encode() + b'\0')
                self.put(X.UC_X86_REG_RAX, self.DATA + 0x8000)
        elif base == 'strcmp':
            a, b = self._cstr(self.get(X.UC_X86_REG_RDI)), self._cstr(self.get(X.UC_X86_REG_RSI))
            # glibc's value, not only its sign: the first differing bytes' difference (as unsigned chars)
            k = next((i for i in range(min(len(a), len(b)) + 1) if a[i:i + 1] != b[i:i + 1]), None)
            diff = 0 if k is None else (a[k] if k < len(a) else 0) - (b[k] if k < len(b) else 0)
            self.put(X.UC_X86_REG_RAX, diff & 0xffffffff)
        else:
            self.fail = 'calls %s, an import the dispatch check does not model' % (name or hex(addr))
            mu.emu_stop()

    def _stop(self, mu, addr, size, _):
        if self.stops is not None and addr - BASE in self.stops:
            self.reached = addr - BASE
            self.unclean = self._unclean()
            mu.emu_stop()

    def _unclean(self):
        """Why the state at a kernel's entry is not a clean tail call of it
        (the kernel's arguments, %rsp, the return address, the callee-saved
        registers, DF, MXCSR and the x87 control word as the call's entry
        had them, no byte of the arguments' memory or of the caller's frame
        written): [] when it is."""
        X, out = self.X, []
        if self.get(X.UC_X86_REG_RSP) != self.sp or self.read(self.sp, 8) != (self.STUBS + 0xfff0).to_bytes(8, 'little'):
            out.append('%rsp or the return address')
        out += [n for n, r, v in self.saved if self.get(r) != v]
        for (reg, bits), want in zip(self.kernel_args, self.passed):
            if self.get(reg) & ((1 << bits) - 1) != want & ((1 << bits) - 1):
                out.append('an argument')
                break
        if self.get(X.UC_X86_REG_EFLAGS) & 0x400:
            out.append('DF')
        if self.get(X.UC_X86_REG_MXCSR) & 0xffc0 != 0x1f80 or self.get(X.UC_X86_REG_FPCW) & 0x1f3f != 0x037f & 0x1f3f:
            out.append('the MXCSR or x87 control')
        if self.read(self.DATA, 0x2000) != self.data0:
            out.append('the arguments\' memory')
        if self.read(self.sp + 8, 0x100) != self.FRAME:
            out.append('the caller\'s frame')
        return out

    CALLEE_SAVED = ('rbx', 'rbp', 'r12', 'r13', 'r14', 'r15')

    def run(self, entry, fs, env, stops, first=None, values=(), kernel_args=(), lead=0):
        """The kernel address reached from entry with feature set fs and
        environment env ({name: value}), or None with self.fail saying why;
        first: the bytes the first argument points at (else zeros, as the
        others'); values: the first arguments' values instead. stops None:
        a call run to its return ('return'). kernel_args: (register, bits)
        of each of the kernel's arguments, which are the call's after its
        first lead; at the stop self.unclean says how the state is no clean
        tail call with them."""
        mu, X = self.mu, self.X
        # a hook only on this run's stops: unicorn weighs every hook at every instruction
        for a in set(self.hooked_stops) - set(stops or ()):
            mu.hook_del(self.hooked_stops.pop(a))
        for a in set(stops or ()) - set(self.hooked_stops):
            self.hooked_stops[a] = mu.hook_add(self.uc_mod.UC_HOOK_CODE, self._stop, begin=BASE + a, end=BASE + a)
        state = self._initialized(fs, env)
        self.stops, self.fs, self.env, self.env_read = stops, fs, env, []
        self.reached, self.fail = None, None
        if isinstance(state, str):
            self.fail = state
            return None
        for a, data in state:
            mu.mem_write(a, data)
        mu.mem_write(self.DATA, self.ZEROS)
        mu.mem_write(self.TLS, self.tls0)
        data0 = bytearray(0x2000)
        if first is not None:
            mu.mem_write(self.DATA + 0x400, first)
            n = min(len(first), 0x2000 - 0x400)
            data0[0x400:0x400 + n] = first[:n]
        self.data0 = bytes(data0)
        sp = self.sp
        mu.mem_write(sp, (self.STUBS + 0xfff0).to_bytes(8, 'little'))
        mu.mem_write(sp + 8, self.FRAME)     # the caller's frame, to be left as it is
        args = [values[k] if k < len(values) else self.DATA + 0x400 * (k + 1) for k in range(6)]   # pointers to zeros
        self._enter(tuple(args))
        self.passed = args[lead:]
        self.kernel_args = [(getattr(X, 'UC_X86_REG_' + r.upper()), bits) for r, bits in kernel_args]
        self.unclean = []
        try:
            mu.emu_start(BASE + entry, self.STUBS + 0xfff1, count=STEP_LIMIT)
        except self.uc_mod.UcError as e:
            self.fail = 'faults at %s (%s)' % (self.where(mu.reg_read(X.UC_X86_REG_RIP)), e)
        if self.reached is None and self.fail is None:
            self.fail = 'runs %d instructions without reaching a kernel' % STEP_LIMIT
        return None if self.fail else self.reached

    NOWHERE = 0x7c0000000000     # argv and envp of the constructors: unmapped, so reading them fails

    def constructors(self):
        """The initializers glibc's loader calls, in its order (call_init):
        DT_INIT, then each word of DT_INIT_ARRAY (relocated)."""
        dyn, out = self.image.dyn, []
        if DT_INIT in dyn:
            out.append(BASE + dyn[DT_INIT])
        n = dyn.get(DT_INIT_ARRAYSZ, 0) // 8 * 8
        if DT_INIT_ARRAY in dyn and n:
            if n > self.image.span()[1]:      # larger than the library: no read of it
                raise ValueError('DT_INIT_ARRAYSZ (%d) is larger than the library' % n)
            data = self.read(BASE + dyn[DT_INIT_ARRAY], n)
            out += [int.from_bytes(data[k:k + 8], 'little') for k in range(0, len(data), 8)]
        return out

    def _initialized(self, fs, env):
        """What the library's constructors leave on a CPU with feature set
        fs in environment env, as they ran while the process loaded it:
        [(page, bytes)] of every writable run of pages (the snapshot's own
        bytes where they changed none), or why they did not return (a
        string). Made once per feature set, and per
        environment too where a constructor read it."""
        hit = self.initialized.get((fs, None))
        if hit is None:
            hit = self.initialized.get((fs, tuple(sorted(env.items()))))
        if hit is not None:
            return hit
        mu, X = self.mu, self.X
        self.stops, self.fs, self.env, self.env_read = None, fs, env, []
        for a, data in self.snapshot:
            mu.mem_write(a, data)
        out = None
        try:
            entries = self.constructors()
        except self.uc_mod.UcError:
            entries, out = [], 'its DT_INIT_ARRAY is not in the library\'s memory'
        except ValueError as e:
            entries, out = [], str(e)
        mu.mem_write(self.TLS, self.tls0)
        for at in entries:
            self.reached, self.fail = None, None
            mu.mem_write(self.sp, (self.STUBS + 0xfff0).to_bytes(8, 'little'))
            self._enter((0, self.NOWHERE, self.NOWHERE, 0, 0, 0))      # argc, argv, envp
            try:
                mu.emu_start(at, self.STUBS + 0xfff1, count=STEP_LIMIT)
            except self.uc_mod.UcError as e:
                self.fail = 'faults at %s (%s)' % (self.where(mu.reg_read(X.UC_X86_REG_RIP)), e)
            if self.reached != 'return':
                out = 'the constructor at %s, run as the loader runs it, %s' % (
                    self.where(at), self.fail or 'runs %d instructions without returning' % STEP_LIMIT)
                break
        if out is None:
            now = [bytes(mu.mem_read(a, n)) for a, n in self.writable]
            changed = sum(len(data) for data, (_, old) in zip(now, self.snapshot) if data != old)
            out = [(a, data if data != old else old) for data, (a, old) in zip(now, self.snapshot)]
            if changed > INIT_LIMIT:      # kept once per feature set: bounded
                out = 'the constructors change more than %d bytes of writable data' % INIT_LIMIT
        key = (fs, tuple(sorted(env.items())) if self.env_read else None)
        self.initialized[key] = out
        return out

    ZEROS = bytes(0x4000)
    FRAME = bytes(range(256))
    GPRS = ('rax', 'rbx', 'rcx', 'rdx', 'rsi', 'rdi', 'rbp', 'r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15')

    def _enter(self, args):
        """Every register as a call with arguments args finds it: those
        of the System V call, the rest 0 (a saved context of them, made
        once for each args)."""
        ctx = self.contexts.get(args)
        if ctx is None:
            X = self.X
            for n in self.GPRS:
                self.put(getattr(X, 'UC_X86_REG_' + n.upper()), 0)
            for k, n in enumerate(('rdi', 'rsi', 'rdx', 'rcx', 'r8', 'r9')):
                self.put(getattr(X, 'UC_X86_REG_' + n.upper()), args[k])
            self.put(X.UC_X86_REG_RSP, self.sp)
            for n, r, v in self.saved:
                self.put(r, v)
            self.put(X.UC_X86_REG_EFLAGS, 0x202)
            self.put(X.UC_X86_REG_MXCSR, 0x1f80)
            self.put(X.UC_X86_REG_FPCW, 0x037f)
            self.put(X.UC_X86_REG_FS_BASE, self.TLS)
            if len(self.contexts) >= 64:
                self.contexts.clear()
            ctx = self.contexts[args] = self.mu.context_save()
        self.mu.context_restore(ctx)

    def call(self, entry, *args):
        """%rax after a call of the function at entry with integer
        arguments args (on a CPU with every feature of the grid, no
        environment); raises ValueError with why it did not return."""
        got = self.run(entry, ('Intel', 0xe7, frozenset(GRID)), {}, None, values=args)
        if got != 'return':
            raise ValueError(self.fail or 'did not return')
        return self.mu.reg_read(self.X.UC_X86_REG_RAX)

    def read(self, addr, n):
        """n bytes at the process's address addr."""
        return bytes(self.mu.mem_read(addr, n))

    def where(self, addr):
        """A process's address as messages name it: in the library, as the file does ('0x1f0a0')."""
        lo, hi = self.image.span()
        return '%#x' % (addr - BASE) if BASE + lo <= addr < BASE + hi else '%#x (outside the library)' % addr

    def string(self, addr):
        return self._cstr(addr)


class Dispatch:
    """The check's answer for one function: per path, the feature sets
    (and environments) that reach it; failures."""

    def __init__(self):
        self.reach, self.bad, self.unresolved, self.seconds, self.cases = {}, [], [], 0.0, 0

    def summary(self, paths):
        out = {'cases': self.cases, 'reaches': {p: n for p, n in sorted(self.reach.items())}}
        if self.bad:
            out['wrong'] = self.bad[:3]
        if self.unresolved:
            out['unresolved'] = self.unresolved[:3]
        return out

    def refuted(self, paths):
        return '; '.join(self.bad[:3]) if self.bad else None

    def unproven(self, paths):
        if self.unresolved:
            return '; '.join(self.unresolved[:3])
        why = ['the %s path, which %d feature sets reach, is %s' % (p, n, _status(paths, p))
               for p, n in sorted(self.reach.items()) if _status(paths, p) != 'proven-binary']
        return '; '.join(why) or None


def _status(paths, p):
    return next((r['status'] for r in paths if r['path'] == p), 'not proven')


_emulators = {}


def emulator(image):
    """The image's emulator, made once."""
    em = _emulators.get(id(image))
    if em is None:
        em = _emulators[id(image)] = Emulator(image)     # it keeps the image: its id names no other
    return em


def check(image, sym, tables, path_results, full=True, first=None, kernel_args=(), values=(), lead=0):
    """Runs every feature set and environment from the function's entry;
    first, values, lead and kernel_args as Emulator.run's: the kernel must
    be entered by a clean tail call with the call's arguments after its
    first lead."""
    t0 = time.monotonic()
    d = Dispatch()
    try:
        import unicorn  # noqa: F401
    except ImportError:
        d.unresolved.append('unicorn missing (Debian: python3-unicorn): the dispatch is not checked')
        return d
    try:
        em = emulator(image)
    except ValueError as e:
        d.unresolved.append(str(e))
        return d
    kernels = {getattr(r, 'kernel_addr', None): r for r in path_results}
    kernels.pop(None, None)
    if not kernels:
        d.unresolved.append('no path proof found the kernel the entry jumps to')
        d.seconds = time.monotonic() - t0
        return d
    for fs in feature_sets(full):
        has = runs(fs)
        for env in ENVS:
            d.cases += 1
            got = em.run(sym.value, fs, {} if env is None else {'Q7PRED_VEC': env}, set(kernels), first,
                         values=values, kernel_args=kernel_args, lead=lead)
            case = '%s, %s, cpuid {%s}, Q7PRED_VEC %s' % (fs[0], 'no OSXSAVE' if fs[1] is None else 'XCR0 %#x' % fs[1],
                                                         ' '.join(sorted(fs[2])) or '-',
                                                               'unset' if env is None else repr(env))
            if got is None:
                d.unresolved.append('%s: %s' % (case, em.fail))
                continue
            if em.unclean:
                # what runs after the kernel, or what the kernel is given, the path proofs did not see
                d.unresolved.append('%s: reaches the kernel at %#x, but not by a clean tail call (%s)'
                                    % (case, got, ', '.join(em.unclean)))
                continue
            held = int.from_bytes(em.read(BASE + tables.addr['in_force'], 8), 'little')
            if held != BASE + tables.table(kernels[got].path):
                # the path proofs ran with in_force holding their table
                d.unresolved.append('%s: reaches the %s kernel with in_force at %s, not that path\'s table'
                                    % (case, kernels[got].path, em.where(held)))
                continue
            r = kernels[got]
            d.reach[r.path] = d.reach.get(r.path, 0) + 1
            lacking = sorted(set(r.features) - has)
            if lacking:
                d.bad.append('%s: reaches the %s kernel at %#x, which needs %s the CPU lacks'
                             % (case, r.path, got, ' '.join(lacking)))
        if len(d.unresolved) > 3:
            break
    d.seconds = time.monotonic() - t0
    return d
