# SPDX-License-Identifier: BSD-3-Clause
"""One instruction run natively, on this CPU, in a crash-isolated child.

The child (a separate python3 process) maps pages at the addresses the
caller chooses and runs exact instruction bytes in them through a stub
that loads every general register (%rsp too), the flags and the vector
registers from a block (zmm0..zmm31 and k0..k7 on a CPU with AVX-512F
and BW, else ymm0..ymm15), jumps to the instruction, and at whichever
landing control reaches stores them all back, with the x87 control and
status words and MXCSR after it. A fault of the instruction (SIGSEGV,
SIGILL, SIGFPE, SIGTRAP, SIGBUS) goes to the stub's own signal handler,
on a stack of its own, which notes the signal and returns from the stub:
the case is reported as that fault and the child goes on. Whatever ends
the child instead, or a case that does not come back within its bound
(the child is then killed), is reported as the case's fault and a new
child runs the rest. Nothing here imports z3, capstone or unicorn: the
child is plain python3 with ctypes.

The stub is written here as machine code byte by byte (RIP-relative
addressing to its own block, so no assembler is needed at proof time);
tests/test_prove_native.sh checks it byte for byte against what GNU as
makes of the same listing.

Landings, where the instruction may send control:
  FALL      the next instruction's address (a long pad: jmp [rip] to the
            stub's epilogue)
  TAKEN     a relative branch's or call's target
  INDIRECT  the address the case put where an indirect jump, call or ret
            takes its target from
  FALL_RET  a one-byte ret at the next instruction, for a jcc/jmp whose
            target is the very next byte (it returns through a word the
            case put at %rsp: %rsp is stored 8 high)
A landing with too little room before the next occupied byte is a short
jmp to a long pad nearby. Every other byte of a code page is int3 (where
an operand of the instruction lands in a code page, the case's bytes).

The instruction check (x86/check.py) and the proofs' native check
(x86/agree.py, x86/placement.py) both run their states here.
"""
import os
import pickle
import random
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time

PAGE = 4096
GPRS = ['rax', 'rcx', 'rdx', 'rbx', 'rsp', 'rbp', 'rsi', 'rdi'] + ['r%d' % i for i in range(8, 16)]
FLAG_BITS = {'CF': 0, 'PF': 2, 'AF': 4, 'ZF': 6, 'SF': 7, 'OF': 11, 'DF': 10}
M64 = (1 << 64) - 1


def _mask(w):
    return (1 << w) - 1


# ---- the stub, as machine code ---------------------------------------------------------------
# The block (the stub's second page): gpr[16] at 0, rflags at 128, the
# landing reached at 136 (FAULTED: a signal), whether a case is running at
# 137, x87 status before at 138 and after at 140, x87 control after at 142,
# MXCSR after at 144, the signal at 148, the caller's %rsp at 152, the
# instruction's address at 160, the ABI's x87 control word and MXCSR
# (restored after each case) at 168 and 172, the faulting %rip at 176,
# k[8] at 192, and 64 bytes a vector register from 256 (zmm0..31; ymm0..15
# their low 32).
B_RFLAGS, B_EXIT, B_RUNNING, B_FSW0, B_FSW1, B_FCW1, B_MXCSR1, B_SIG = 128, 136, 137, 138, 140, 142, 144, 148
B_SAVED_RSP, B_TARGET, B_FCW_ABI, B_MXCSR_ABI, B_FAULT_RIP, B_K, B_VEC = 152, 160, 168, 172, 176, 192, 256
BLOCK = B_VEC + 64 * 32
FALL, TAKEN, INDIRECT, FALL_RET, FAULTED = 1, 2, 3, 4, 0x80
EPILOGUE = {k: 0x300 * k for k in (FALL, TAKEN, INDIRECT, FALL_RET)}
HANDLER, RECOVER = 0xf00, 0xf80
LONG_PAD = 14          # jmp qword ptr [rip]; .quad epilogue
UC_RIP = 168           # ucontext_t: uc_mcontext.gregs[REG_RIP]


class _Code:
    """Bytes at a known address, RIP-relative operands resolved against the block."""

    def __init__(self, at, block):
        self.at, self.block, self.out = at, block, bytearray()

    def raw(self, *b):
        self.out += bytes(b)

    def rip(self, head, off, tail=b''):
        """An instruction with a disp32 to block+off (tail: bytes after the disp, e.g. an imm8)."""
        end = self.at + len(self.out) + len(head) + 4 + len(tail)
        self.out += bytes(head) + struct.pack('<i', self.block + off - end) + bytes(tail)

    def gpr_load(self, r, off):       # mov r64, [rip+d]
        self.rip([0x48 | (r >> 3) << 2, 0x8b, (r & 7) << 3 | 5], off)

    def gpr_store(self, r, off):      # mov [rip+d], r64
        self.rip([0x48 | (r >> 3) << 2, 0x89, (r & 7) << 3 | 5], off)

    def ymm(self, k, off, store):     # vmovdqu ymmK, [rip+d] / vmovdqu [rip+d], ymmK
        self.rip([0xc5, 0xfe if k < 8 else 0x7e, 0x7f if store else 0x6f, (k & 7) << 3 | 5], off)

    def zmm(self, k, off, store):     # vmovdqu64 zmmK, [rip+d] / vmovdqu64 [rip+d], zmmK (EVEX.512.F3.0F.W1)
        p0 = (~k >> 3 & 1) << 7 | 0x60 | (~k >> 4 & 1) << 4 | 1
        self.rip([0x62, p0, 0xfe, 0x48, 0x7f if store else 0x6f, (k & 7) << 3 | 5], off)

    def kreg(self, j, off, store):    # kmovq kJ, [rip+d] / kmovq [rip+d], kJ (VEX.L0.0F.W1 90/91)
        self.rip([0xc4, 0xe1, 0xf8, 0x91 if store else 0x90, j << 3 | 5], off)

    def vectors(self, store, wide):
        for k in range(32 if wide else 16):
            (self.zmm if wide else self.ymm)(k, B_VEC + 64 * k, store)
        for j in range(8 if wide else 0):
            self.kreg(j, B_K + 8 * j, store)


def stub_code(base, wide=None):
    """The stub's first page, for a stub mapped at base (its block at base
    + PAGE); wide: zmm0..31 and k0..7 (by default where this CPU has them)."""
    wide = WIDE if wide is None else wide
    block = base + PAGE
    page = bytearray(b'\xcc' * PAGE)
    c = _Code(base, block)
    c.raw(0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57)   # push rbx rbp r12..r15
    c.gpr_store(4, B_SAVED_RSP)
    c.rip([0xc6, 0x05], B_RUNNING, b'\x01')                                # mov byte ptr [rip+d], 1
    c.raw(0xdb, 0xe2)                                                      # fnclex
    c.rip([0xdd, 0x3d], B_FSW0)                                            # fnstsw
    c.vectors(False, wide)
    c.rip([0xff, 0x35], B_RFLAGS)                                          # push qword ptr [rip+d]
    c.raw(0x9d)                                                            # popfq
    for r in range(16):
        if r != 4:
            c.gpr_load(r, 8 * r)
    c.gpr_load(4, 8 * 4)                                                   # the case's %rsp, last
    c.rip([0xff, 0x25], B_TARGET)                                          # jmp qword ptr [rip+d]
    page[:len(c.out)] = c.out
    for k, at in EPILOGUE.items():
        e = _Code(base + at, block)
        for r in range(16):
            e.gpr_store(r, 8 * r)
        e.gpr_load(4, B_SAVED_RSP)
        e.raw(0x9c)                                                        # pushfq
        e.rip([0x8f, 0x05], B_RFLAGS)                                      # pop qword ptr [rip+d]
        e.vectors(True, wide)
        e.rip([0xdd, 0x3d], B_FSW1)                                        # fnstsw
        e.rip([0xd9, 0x3d], B_FCW1)                                        # fnstcw
        e.rip([0x0f, 0xae, 0x1d], B_MXCSR1)                                # stmxcsr
        e.rip([0xc6, 0x05], B_EXIT, bytes([k]))                            # mov byte ptr [rip+d], k
        _restore(e)
        assert len(e.out) <= 0x300
        page[at:at + len(e.out)] = e.out
    # The signal handler (rdi the signal, rdx the ucontext): during a case,
    # it notes the signal and where, and sends the interrupted context to
    # RECOVER, which returns from the stub; outside a case it ends the child.
    h = _Code(base + HANDLER, block)
    h.rip([0x80, 0x3d], B_RUNNING, b'\x00')                                # cmp byte ptr [rip+d], 0
    h.raw(0x75, 0x0c)                                                      # jne +12
    h.raw(0xb8, 0xe7, 0x00, 0x00, 0x00, 0xbf, 0x63, 0x00, 0x00, 0x00)     # mov eax, 231; mov edi, 99
    h.raw(0x0f, 0x05)                                                      # syscall (exit_group)
    h.rip([0x89, 0x3d], B_SIG)                                             # mov [rip+d], edi
    h.raw(0x48, 0x8b, 0x82, *struct.pack('<I', UC_RIP))            # mov rax, [rdx+UC_RIP]
    h.rip([0x48, 0x89, 0x05], B_FAULT_RIP)                                 # mov [rip+d], rax
    h.rip([0x48, 0x8d, 0x05], RECOVER - PAGE)                              # lea rax, [rip+recover]
    h.raw(0x48, 0x89, 0x82, *struct.pack('<I', UC_RIP))            # mov [rdx+UC_RIP], rax
    h.raw(0xc3)
    page[HANDLER:HANDLER + len(h.out)] = h.out
    r = _Code(base + RECOVER, block)
    r.gpr_load(4, B_SAVED_RSP)
    r.rip([0xc6, 0x05], B_EXIT, bytes([FAULTED]))
    _restore(r)
    page[RECOVER:RECOVER + len(r.out)] = r.out
    return bytes(page)


def _restore(e):
    """The end of a case: the ABI's float state, DF clear, the caller's registers, return."""
    e.rip([0xc6, 0x05], B_RUNNING, b'\x00')                                # mov byte ptr [rip+d], 0
    e.raw(0xdb, 0xe2)                                                      # fnclex
    e.rip([0xd9, 0x2d], B_FCW_ABI)                                         # fldcw
    e.rip([0x0f, 0xae, 0x15], B_MXCSR_ABI)                                 # ldmxcsr
    e.raw(0xfc, 0xc5, 0xf8, 0x77)                                          # cld; vzeroupper
    e.raw(0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, 0x5d, 0x5b, 0xc3)   # pop r15..rbx; ret


def block_bytes(gpr, rflags, vec, target, kreg=()):
    """The block a case starts from: gpr as 16 numbers in GPRS order; vec
    the vector registers (zmm: 512 bits; ymm0..15 load their low 256);
    kreg the opmask registers (loaded where the stub is wide)."""
    b = bytearray(BLOCK)
    for k in range(16):
        struct.pack_into('<Q', b, 8 * k, gpr[k] & M64)
    struct.pack_into('<Q', b, B_RFLAGS, rflags)
    struct.pack_into('<Q', b, B_TARGET, target)
    struct.pack_into('<HI', b, B_FCW_ABI, 0x037f, 0)
    struct.pack_into('<I', b, B_MXCSR_ABI, 0x1f80)
    for k, v in enumerate(vec):
        b[B_VEC + 64 * k:B_VEC + 64 * k + 64] = (v & _mask(512)).to_bytes(64, 'little')
    for j, v in enumerate(kreg):
        struct.pack_into('<Q', b, B_K + 8 * j, v & M64)
    return bytes(b)


def read_block(b):
    """The state a case ended in, from its block."""
    out = {'gpr': [struct.unpack_from('<Q', b, 8 * k)[0] for k in range(16)], 'signal': None,
           'rflags': struct.unpack_from('<Q', b, B_RFLAGS)[0], 'exit': b[B_EXIT],
           'fsw_before': struct.unpack_from('<H', b, B_FSW0)[0], 'fsw': struct.unpack_from('<H', b, B_FSW1)[0],
           'fcw': struct.unpack_from('<H', b, B_FCW1)[0], 'mxcsr': struct.unpack_from('<I', b, B_MXCSR1)[0],
           'ymm': [int.from_bytes(b[B_VEC + 64 * k:B_VEC + 64 * k + 32], 'little') for k in range(16)]}
    if WIDE:
        out['zmm'] = [int.from_bytes(b[B_VEC + 64 * k:B_VEC + 64 * k + 64], 'little') for k in range(32)]
        out['k'] = [struct.unpack_from('<Q', b, B_K + 8 * j)[0] for j in range(8)]
    if out['exit'] == FAULTED:
        sig = struct.unpack_from('<i', b, B_SIG)[0]
        out['signal'] = SIGNALS.get(sig, 'signal %d' % sig)
        out['fault_rip'] = struct.unpack_from('<Q', b, B_FAULT_RIP)[0]
    return out


def rflags_of(flags):
    """RFLAGS from {'CF': bool, ...} (IF and the reserved bit 1 set)."""
    v = 0x202
    for f, on in flags.items():
        v |= int(bool(on)) << FLAG_BITS[f]
    return v


# ---- code pages: the instruction and its landings -------------------------------------------

class Unplaceable(Exception):
    """The instruction's landings cannot be laid out around it."""


def code_pages(stub, at, code, taken=None, indirect=None, stackless=False):
    """code_layout's pages alone."""
    return code_layout(stub, at, code, taken, indirect, stackless)[0]


def code_layout(stub, at, code, taken=None, indirect=None, stackless=False):
    """({page address: bytes}, [(low, high)] of the bytes that are code):
    code at `at` and a landing pad at each place control may go next (the
    next instruction; `taken`, a relative branch's target; `indirect`,
    where an indirect one is sent), each reaching the stub's epilogue for
    its landing; stackless: the instruction touches no stack (a jcc or a
    jmp), so a one-byte ret may serve as its fall-through landing. The
    other bytes of the pages are int3, which a case may overwrite with
    the bytes of an operand that lands there."""
    used = [(at, at + len(code))]
    pads = [(at, bytes(code))]

    def free(lo, hi):
        return all(hi <= a or lo >= b for a, b in used)

    def put(addr, b):
        used.append((addr, addr + len(b)))
        pads.append((addr, b))

    def long_pad(addr, landing):
        put(addr, b'\xff\x25\x00\x00\x00\x00' + struct.pack('<Q', stub + EPILOGUE[landing]))

    def place(addr, room, landing):
        if room >= LONG_PAD:
            long_pad(addr, landing)
        elif room >= 2:
            for s in list(range(addr - 126, addr - LONG_PAD + 1)) + list(range(addr + 2, addr + 130 - LONG_PAD)):
                if free(s, s + LONG_PAD) and free(addr, addr + 2):
                    put(addr, bytes([0xeb, (s - addr - 2) & 0xff]))
                    long_pad(s, landing)
                    return
            raise Unplaceable('no room for a landing at %#x' % addr)
        elif room == 1 and landing == FALL and stackless:
            put(addr, b'\xc3')
        else:
            raise Unplaceable('one byte of room for a landing at %#x' % addr)

    fall = at + len(code)
    if taken is not None and at <= taken < fall:
        raise Unplaceable('it branches into its own bytes')
    if taken is not None and taken != fall:
        if taken > fall:
            place(fall, taken - fall, FALL)
            long_pad(taken, TAKEN)
        else:
            place(taken, at - taken, TAKEN)
            place(fall, 1 << 30, FALL)
    else:
        place(fall, 1 << 30, FALL)
    if indirect is not None:
        if not free(indirect, indirect + LONG_PAD):
            raise Unplaceable('the indirect landing meets the code')
        long_pad(indirect, INDIRECT)
    pages = {}
    for addr, b in pads:
        for i, x in enumerate(b):
            p = (addr + i) & ~(PAGE - 1)
            page = pages.setdefault(p, bytearray(b'\xcc' * PAGE))
            page[addr + i - p] = x
    return {p: bytes(b) for p, b in pages.items()}, sorted(used)


def landing_address(exit_id, at, size, taken, indirect):
    """Where a case's landing says control went."""
    return {FALL: at + size, FALL_RET: at + size, TAKEN: taken, INDIRECT: indirect}.get(exit_id)


# ---- the child ---------------------------------------------------------------------------------

PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
STUB_AREA = 0x2f0000000000      # far from the code and data a case maps (see x86/agree.py)
MAP_PRIVATE, MAP_ANONYMOUS, MAP_FIXED_NOREPLACE = 0x02, 0x20, 0x100000
SIGNALS = {getattr(signal, n): n for n in ('SIGSEGV', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGBUS', 'SIGABRT', 'SIGKILL',
                                           'SIGSYS')}


def _send(fd, obj):
    data = pickle.dumps(obj, protocol=4)
    data = struct.pack('<I', len(data)) + data
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _recv_exact(fd, n):
    out = b''
    while len(out) < n:
        got = os.read(fd, n - len(out))
        if not got:
            return None
        out += got
    return out


SA_SIGINFO, SA_ONSTACK = 4, 0x08000000


def _c_structs():
    import ctypes

    class StackT(ctypes.Structure):
        _fields_ = [('ss_sp', ctypes.c_void_p), ('ss_flags', ctypes.c_int), ('ss_size', ctypes.c_size_t)]

    class Sigaction(ctypes.Structure):           # glibc's struct sigaction on x86-64
        _fields_ = [('sa_sigaction', ctypes.c_void_p), ('sa_mask', ctypes.c_uint64 * 16), ('sa_flags', ctypes.c_int),
                    ('sa_restorer', ctypes.c_void_p)]
    return StackT, Sigaction


def child_main(stub):
    """The child: its stub at `stub`; runs jobs from stdin, one result per case on stdout."""
    import ctypes
    import resource
    global _StackT, _Sigaction
    _StackT, _Sigaction = _c_structs()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)                  # PR_SET_PDEATHSIG: never outlive the prover
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    inp, out = 0, os.dup(1)
    os.dup2(2, 1)                                  # nothing else may write on the result pipe
    if libc.mmap(stub, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                 -1, 0) != stub:
        _send(out, 'the stub\'s pages at %#x are taken' % stub)
        return
    ctypes.memmove(stub, stub_code(stub), PAGE)
    libc.mprotect(stub, PAGE, PROT_READ | PROT_EXEC)
    run = ctypes.CFUNCTYPE(None)(stub)
    # a fault during a case goes to the stub's handler, on a stack of its own
    alt = libc.mmap(None, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    libc.sigaltstack(ctypes.byref(_StackT(alt, 0, 1 << 16)), None)
    act = _Sigaction(stub + HANDLER, (ctypes.c_uint64 * 16)(), SA_SIGINFO | SA_ONSTACK, None)
    for sig in (signal.SIGSEGV, signal.SIGILL, signal.SIGFPE, signal.SIGTRAP, signal.SIGBUS):
        libc.sigaction(sig, ctypes.byref(act), None)
    fs = ctypes.c_ulong()
    libc.syscall(158, 0x1003, ctypes.byref(fs))   # arch_prctl(ARCH_GET_FS): the canary at %fs:0x28
    _send(out, {'stub': stub, 'canary': ctypes.c_uint64.from_address(fs.value + 0x28).value})
    while True:
        head = _recv_exact(inp, 4)
        if head is None:
            return
        job = pickle.loads(_recv_exact(inp, struct.unpack('<I', head)[0]))
        mapped, why = [], None
        for addr, data, prot in job['pages']:
            got = libc.mmap(addr, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                            -1, 0)
            if got != addr:
                if got not in (None, 2 ** 64 - 1):
                    libc.munmap(got, PAGE)
                why = 'page %#x is taken' % addr
                break
            mapped.append(addr)
            if data:
                ctypes.memmove(addr, data, PAGE)
            libc.mprotect(addr, PAGE, prot)
        _send(out, {'mapped': why is None, 'why': why})
        if why is None:
            rw = [a for a, _, prot in job['pages'] if prot & PROT_WRITE]
            code = {a: prot for a, _, prot in job['pages'] if not prot & PROT_WRITE}
            for i in range(job['start'], len(job['cases'])):
                case = job['cases'][i]
                for addr, data in case['writes']:
                    page = addr & ~(PAGE - 1)
                    if page in code:             # an operand's bytes in a code page, around the code
                        libc.mprotect(page, PAGE, PROT_READ | PROT_WRITE)
                    ctypes.memmove(addr, data, len(data))
                    if page in code:
                        libc.mprotect(page, PAGE, code[page])
                before = [ctypes.string_at(a, PAGE) for a in rw]
                ctypes.memmove(stub + PAGE, case['block'], BLOCK)
                run()
                reads = [ctypes.string_at(a, n) for a, n in case['reads']]
                outside = []
                for a, old in zip(rw, before):
                    new = ctypes.string_at(a, PAGE)
                    if new != old:
                        outside += [a + k for k in range(PAGE) if new[k] != old[k] and
                                    not any(lo <= a + k < lo + n for lo, n in case['reads'])][:4]
                _send(out, {'i': i, 'block': ctypes.string_at(stub + PAGE, BLOCK), 'reads': reads,
                            'outside': outside})
        for addr in mapped:
            libc.munmap(addr, PAGE)
        _send(out, {'end': True})


class Unavailable(Exception):
    """This machine cannot run the native check (the reason)."""


class Runner:
    """The parent's side: one child at a time, started on first use and
    again when one ends; run() takes one job (its pages and cases) and
    returns one result per case: the child's block (a fault the stub's
    handler caught is in it), reads and writes outside the reads, or
    {'fault': 'SIGKILL' / 'exit 99' / 'timeout'} for a case that ended the
    child."""

    def __init__(self, case_timeout=10.0):
        self.case_timeout = case_timeout
        self.proc = None
        self.stub = self.canary = None
        self.starts = 0
        self.broken = None
        self.rng = random.Random()

    def _start(self):
        if self.broken:
            raise Unavailable(self.broken)
        if not _has_avx():
            self.broken = 'this CPU has no AVX (the stub loads and stores ymm registers)'
            raise Unavailable(self.broken)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        for attempt in range(4):
            # the stub stays at one address for every child: the landings name it
            stub = self.stub if self.stub is not None else STUB_AREA + PAGE * self.rng.randrange(1 << 20)
            # the package's own root alone on the child's path: no user site, no site packages
            env = dict(os.environ, PYTHONPATH=root)
            self.err = tempfile.TemporaryFile()
            self.proc = subprocess.Popen([sys.executable, '-s', '-S', '-m', 'q7prove.x86.native', str(stub)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                         close_fds=True, env=env)
            self.buf = b''
            self.starts += 1
            hello = self._recv(10.0)
            if isinstance(hello, dict) and 'stub' in hello:
                self.stub, self.canary = hello['stub'], hello['canary']
                return
            self._stop()
            if self.stub is not None:
                break
        self.broken = 'the native runner did not start (%s)' % self._why(hello)
        raise Unavailable(self.broken)

    def _why(self, got):
        if isinstance(got, str):
            return got
        self.err.seek(0)
        tail = self.err.read()[-300:].decode('utf-8', 'replace').strip().splitlines()
        return tail[-1] if tail else 'no answer'

    def _recv(self, timeout):
        """The next message, or a string: 'timeout', or the signal or exit that ended the child."""
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            if len(self.buf) >= 4:
                n = struct.unpack('<I', self.buf[:4])[0]
                if len(self.buf) >= 4 + n:
                    msg = pickle.loads(self.buf[4:4 + n])
                    self.buf = self.buf[4 + n:]
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                self._stop()
                return 'timeout'
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            got = os.read(fd, 1 << 20)
            if not got:
                return self._ended()
            self.buf += got

    def _ended(self):
        rc = self.proc.wait()
        self.proc = None
        if rc < 0:
            return SIGNALS.get(-rc, 'signal %d' % -rc)
        return 'exit %d' % rc

    def _stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def ensure(self):
        """The stub's address (a layout needs it), starting the child if none runs."""
        if self.proc is None:
            self._start()
        return self.stub

    def run(self, pages, cases):
        """pages [(address, bytes or None, prot)], cases [{'block', 'writes': [(address, bytes)],
        'reads': [(address, n)]}]: one result per case; raises Unplaceable when a page is taken."""
        results, lost = [], 0
        while len(results) < len(cases):
            self.ensure()
            try:
                _send(self.proc.stdin.fileno(), {'pages': pages, 'cases': cases, 'start': len(results)})
            except OSError:                     # the child is gone: once more with a new one
                self._stop()
                lost += 1
                if lost > 2:
                    raise Unavailable('the native runner stopped reading')
                continue
            ack = self._recv(10.0)
            if not isinstance(ack, dict):
                raise Unavailable('the native runner ended while mapping pages (%s)' % self._why(ack))
            if not ack['mapped']:
                self._recv(10.0)
                raise Unplaceable(ack['why'])
            while len(results) < len(cases):
                msg = self._recv(self.case_timeout)
                if isinstance(msg, dict):
                    results.append(msg)
                    continue
                results.append({'fault': msg})      # the case in progress ended the child
                break
            else:
                end = self._recv(10.0)
                if not (isinstance(end, dict) and end.get('end')):
                    self._stop()
        return results

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
            self.proc = None


def cpu_name():
    """This CPU's model name, as /proc/cpuinfo gives it."""
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return 'an unnamed x86-64 CPU'


def cpu_flags():
    """/proc/cpuinfo's flags of this CPU (none where it cannot say)."""
    try:
        with open('/proc/cpuinfo') as f:
            return set(next((ln for ln in f if ln.startswith('flags')), ':').split(':', 1)[1].split())
    except OSError:
        return set()


def _has_avx():
    return 'avx' in cpu_flags()


WIDE = {'avx512f', 'avx512bw'} <= cpu_flags()     # zmm16..31 and kmovq: AVX512F and BW


if __name__ == '__main__':
    child_main(int(sys.argv[1]))
