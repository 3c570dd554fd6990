#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove proves the library as the loader leaves it, not its file
# (docs/proofs.md, "What is read from the loaded library"). Hostile
# libraries (tests/prove/hostile_loader/), built here, each first shown wrong by a
# native call (q7pred call, or tests/prove/hostile_loader/hostile_call.c where a
# program would call it otherwise: bound lazily, later, in a forked child),
# then never proven-binary, with the reason it must give:
#   1. relocations of code or read-only data (DT_TEXTREL), and of code in a
#      writable and executable segment;
#   2. words relocated through DT_RELR (-z pack-relative-relocs), which a
#      reader of DT_RELA alone misses (refuted: the proof reads them);
#   3. symbol versions: a wrong default version, three versions, a leaf
#      that exists only as a hidden version;
#   4. code that runs at load: a constructor (and DT_INIT) rewriting .rodata
#      after mprotect, rewriting code in an RWX segment, repointing a lazy
#      .got.plt slot, leaving a thread or a SIGALRM handler and timer that
#      rewrite .rodata later, setting MXCSR.DAZ, a fork handler rewriting
#      .rodata in the child, taking execute permission from the leaf,
#      loading another library that defines a lazily bound helper,
#      starting a daemon that writes .rodata through /proc/PID/mem;
#   5. a leaf calling through the PLT a name libc or libm also define (abs,
#      memcpy, fmin): every process calls libc's or libm's;
#   6. ELF/loader disagreements: two .dynsym entries of one name, a name
#      past DT_STRSZ, a second DT_JMPREL, a JUMP_SLOT with an addend, a lazy
#      PLT slot whose file value skips the loader, a GOT entry of an SHN_ABS
#      symbol, overlapping PT_LOADs, an IFUNC helper through the PLT and
#      through R_X86_64_IRELATIVE; and (natively right) a TLS relocation
#      the proof does not model, named;
#   7. files nothing loads as a library (ET_REL, ET_EXEC, a PIE): exit 2,
#      one line; leaf symbols that are no function (STT_OBJECT, STT_TLS, an
#      absolute symbol, an undefined one): never proven.
# And controls built with ordinary flags that must stay proven-binary:
# -z now -z relro, lazy binding (also IBT PLTs and lld's), RELR with right
# data, versions with a right default, a constructor that sets up writable
# data only.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone (a SKIP
# without them, a failure under CI=true) and a C compiler with GNU ld.
# slow: about forty small libraries built, called natively and proven (about 40 s)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh
CC=${CC:-cc}
H=tests/prove/hostile_loader
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

"$CC" -O2 -o "$tmp/hostile_call" "$H/hostile_call.c" -ldl || { echo "FAIL: cannot build hostile_call"; exit 1; }
"$Q7PRED" prove --write-table "$tmp/table.json" || { echo "FAIL: --write-table"; exit 1; }
ld_has() { "$CC" -shared -fPIC -Wl,"$1" -o "$tmp/probe.so" -x c /dev/null >/dev/null 2>&1; }
RWX=; ld_has --no-warn-rwx-segments && RWX=-Wl,--no-warn-rwx-segments

build() { # name source flags...: $tmp/NAME.so from $H/SOURCE
    local name=$1 src=$2; shift 2
    "$CC" -O2 -shared -fPIC "$@" -o "$tmp/$name.so" "$H/$src" 2>"$tmp/$name.build" ||
        { bad "$name: cannot build ($(head -n 2 "$tmp/$name.build" | tr '\n' ' '))"; return 1; }
}
patch() { # name op args...: patch_elf.py on $tmp/NAME.so
    local name=$1; shift
    "$PYTHON" "$H/patch_elf.py" "$1" "$tmp/$name.so" "${@:2}" || bad "$name: patch $1 failed"
}
spec_eq() { [ "$1" = "$2" ] && echo 0x1 || echo 0x0; }
# the native call shows the library wrong: some input where the result is not the spec's
wrong_eq() { # name [hostile_call options...]: eq_1_8_8 on (3,3) and (3,4)
    local name=$1; shift
    local seen=""
    for pair in "3 3" "3 4"; do
        local got
        if [ $# -gt 0 ]; then got=$("$tmp/hostile_call" "$tmp/$name.so" module__xdref_eq_1_8_8 $pair "$@" 2>&1)
        else got=$("$Q7PRED" call --lib "$tmp/$name.so" eq_1_8_8 $pair 2>&1 | tail -n 1); fi
        local want="result = $(spec_eq $pair)"
        [ "$got" != "$want" ] && seen="$seen ($pair) gives '$got', the spec $want;"
    done
    if [ -n "$seen" ]; then ok "$name: wrong natively:$seen"; else bad "$name: the native call is right: not a hostile library"; fi
}
right_eq() { # name: a control's native call is right
    for pair in "3 3" "3 4"; do
        [ "$("$Q7PRED" call --lib "$tmp/$1.so" eq_1_8_8 $pair | tail -n 1)" = "result = $(spec_eq $pair)" ] ||
            { bad "$1: the control's native call is wrong"; return; }
    done
}
prove() { # name leaves...: $tmp/NAME.json and .out
    local name=$1; shift
    local args=(); for l in "$@"; do args+=(--leaf "$l"); done
    "$Q7PRED" prove --lib "$tmp/$name.so" "${args[@]}" --json "$tmp/$name.json" >"$tmp/$name.out" 2>&1
    echo $? >"$tmp/$name.rc"
}
expect() { # name leaf status-regex reason-regex
    local st reason
    st=$(member "$tmp/$1.json" "$2" status 2>/dev/null); reason=$(member "$tmp/$1.json" "$2" reason 2>/dev/null)
    if [ "$st" = proven-binary ] && [ "$3" != proven-binary ]; then bad "$1 $2: PROVEN-BINARY, a false proof"; return; fi
    if echo "$st" | grep -qx -- "$3" && echo "$reason" | grep -q -- "$4"; then ok "$1 $2: $st (${reason:0:160})"
    else bad "$1 $2: $st ($reason), want $3 matching '$4'"; cat "$tmp/$1.out" | head -n 5; fi
}

# ---- 1. relocations of code and read-only data
build textrel_imm textrel_imm.S -Wl,-z,notext && wrong_eq textrel_imm
build textrel_rodata textrel_rodata.S -Wl,-z,notext && wrong_eq textrel_rodata
build rwx_reloc rwx_reloc.S $RWX && wrong_eq rwx_reloc
readelf -d "$tmp/textrel_imm.so" | grep -q TEXTREL && ok "textrel_imm.so has DT_TEXTREL" || bad "textrel_imm.so: no DT_TEXTREL"
# ---- 2. DT_RELR
relr=-Wl,-z,pack-relative-relocs
if ld_has -z,pack-relative-relocs; then
    build relr_ptr relr_ptr.S $relr && wrong_eq relr_ptr
    build relr_bitmap relr_bitmap.S $relr && wrong_eq relr_bitmap
    build relr_call relr_call.c $relr && wrong_eq relr_call
    build relr_good relr_good.c $relr && right_eq relr_good
    for n in relr_ptr relr_bitmap relr_call relr_good; do
        readelf -d "$tmp/$n.so" | grep -q '(RELR)' || bad "$n.so has no DT_RELR: not the test it claims"
    done
else echo "note: this linker has no -z pack-relative-relocs: the RELR libraries are not built"; relr=; fi
# ---- 3. symbol versions
for n in ver_wrong_default ver_three ver_hidden_only ver_good; do build $n $n.c -Wl,--version-script="$H/versions.map"; done
wrong_eq ver_wrong_default
[ "$("$Q7PRED" call --lib "$tmp/ver_three.so" eq_1_8_8 7 7 | tail -n 1)" = "result = 0x0" ] &&
    ok "ver_three: wrong natively: (7 7) gives 0x0" || bad "ver_three: the default version is right at (7 7)"
"$Q7PRED" call --lib "$tmp/ver_hidden_only.so" eq_1_8_8 3 3 >"$tmp/h.out" 2>&1 && bad "ver_hidden_only: dlsym finds it" ||
    ok "ver_hidden_only: no caller finds it by name ($(tail -n 1 "$tmp/h.out"))"
right_eq ver_good
# ---- 4. code that runs at load
build ctor_rodata ctor_rodata.c && wrong_eq ctor_rodata
build init_rodata ctor_rodata.c -DVIA_DT_INIT -Wl,-init=hostile_init && wrong_eq init_rodata
readelf -d "$tmp/init_rodata.so" | grep -q '(INIT) ' || bad "init_rodata.so has no DT_INIT"
build ctor_rwx ctor_rwx.c $RWX && wrong_eq ctor_rwx
build ctor_gotplt ctor_gotplt.c && wrong_eq ctor_gotplt
build ctor_thread ctor_thread.c -pthread && wrong_eq ctor_thread sleep 300
build ctor_sigalrm ctor_sigalrm.c && wrong_eq ctor_sigalrm sleep 300
build ctor_atfork ctor_atfork.c -pthread && wrong_eq ctor_atfork fork
build ctor_daemon ctor_daemon.c && wrong_eq ctor_daemon sleep 300
build ctor_noexec ctor_noexec.c
"$Q7PRED" call --lib "$tmp/ctor_noexec.so" eq_1_8_8 3 3 2>&1 | grep -q 'crashed (SIGSEGV)' &&
    ok "ctor_noexec: every native call crashes (SIGSEGV)" || bad "ctor_noexec: the native call does not crash"
build ctor_daz ctor_daz.c
[ "$("$Q7PRED" call --lib "$tmp/ctor_daz.so" ult_1_4_32f_32f 0 0x1 | tail -n 1)" = "result = 0x0" ] &&
    [ "$("$Q7PRED" call --lib "$Q7LIB" ult_1_4_32f_32f 0 0x1 | tail -n 1)" = "result = 0xf" ] &&
    ok "ctor_daz: wrong natively: 0 < 1e-45 gives 0x0, the spec (and $Q7LIB) 0xf" || bad "ctor_daz: the native call is right"
build ctor_data_good ctor_data_good.c && right_eq ctor_data_good
build interposer interposer.c && build ctor_interpose ctor_interpose.c -ldl
export Q7HOSTILE_EVIL=$tmp/interposer.so    # what ctor_interpose's constructor loads, here and in prove's child
[ "$("$Q7PRED" call --lib "$tmp/ctor_interpose.so" eq_1_8_8 3 3 | tail -n 1)" = "result = 0x1" ] &&
    ok "ctor_interpose: right where bound at load (q7pred call)" || bad "ctor_interpose: wrong where bound at load"
wrong_eq ctor_interpose lazy
# ---- 5. names libc or libm also define
for n in own_abs own_memcpy own_fmin; do build $n $n.c -fno-builtin && wrong_eq $n; done
build plt_good plt_good.c && right_eq plt_good
build plt_now plt_good.c -Wl,-z,now -Wl,-z,relro && right_eq plt_now
build plt_ibt plt_good.c -fcf-protection -Wl,-z,ibtplt
# ---- 6. ELF/loader disagreements
build dup_dynsym decoy.c && patch dup_dynsym dup-dynsym && wrong_eq dup_dynsym
build name_outside decoy.c && patch name_outside name-outside && wrong_eq name_outside
build dup_jmprel plt_patch.c && patch dup_jmprel dup-jmprel && wrong_eq dup_jmprel
build lazy_slot plt_patch.c && patch lazy_slot lazy-slot && wrong_eq lazy_slot lazy
# glibc 2.36 drops a JUMP_SLOT's addend, later ones add it when binding at
# load, and lazy binding never does: no native call settles it, so no proof
build plt_addend plt_patch.c && patch plt_addend plt-addend 2
build shn_abs shn_abs.S -Wl,--defsym,q7hostile_magic=0x10 && patch shn_abs abs-value q7hostile_magic anchor && wrong_eq shn_abs
readelf -r "$tmp/shn_abs.so" | grep -q 'GLOB_DAT.*q7hostile_magic' || bad "shn_abs.so: no GLOB_DAT of the absolute symbol"
build overlap_load overlap_load.S && patch overlap_load overlap-load && wrong_eq overlap_load
build ifunc_plt ifunc_plt.c && wrong_eq ifunc_plt
build irelative irelative.c && wrong_eq irelative
readelf -r "$tmp/irelative.so" | grep -q IRELATIV || bad "irelative.so has no R_X86_64_IRELATIVE"
build tls_ie tls_ie.c && right_eq tls_ie
readelf -r "$tmp/tls_ie.so" | grep -q TPOFF64 || bad "tls_ie.so has no R_X86_64_TPOFF64"
# ---- 7. what is not a library, leaves that are no function
"$CC" -O2 -fPIC -c -o "$tmp/et_rel.so" "$H/plt_good.c"
"$CC" -O2 -no-pie -fno-pie -rdynamic -o "$tmp/et_exec.so" "$H/plt_good.c" "$H/et_main.c"
"$CC" -O2 -fPIE -pie -rdynamic -o "$tmp/et_pie.so" "$H/plt_good.c" "$H/et_main.c"
for n in et_rel et_exec et_pie; do
    "$Q7PRED" call --lib "$tmp/$n.so" eq_1_8_8 3 3 >/dev/null 2>&1 && bad "$n: q7pred call loads it" ||
        ok "$n: q7pred call refuses it"
done
build object_leaf object_leaf.S
build tls_leaf tls_leaf.c
build undef_leaf undef_leaf.c
build abs_leaf abs_leaf.S && patch abs_leaf abs-value module__xdref_eq_1_8_8 q7hostile_eq
"$Q7PRED" call --lib "$tmp/abs_leaf.so" eq_1_8_8 3 3 2>&1 | grep -q crashed && ok "abs_leaf: every native call crashes" ||
    bad "abs_leaf: the native call does not crash"

# ---- the proofs, two at a time
jobs=(textrel_imm:eq_1_8_8 textrel_rodata:eq_1_8_8 rwx_reloc:eq_1_8_8
      ver_wrong_default:eq_1_8_8 ver_three:eq_1_8_8 ver_hidden_only:eq_1_8_8 ver_good:eq_1_8_8
      ctor_rodata:eq_1_8_8 init_rodata:eq_1_8_8 ctor_rwx:eq_1_8_8 ctor_gotplt:eq_1_8_8 ctor_thread:eq_1_8_8
      ctor_sigalrm:eq_1_8_8 ctor_atfork:eq_1_8_8 ctor_noexec:eq_1_8_8 ctor_daz:ult_1_4_32f_32f ctor_data_good:eq_1_8_8
      ctor_interpose:eq_1_8_8 ctor_daemon:eq_1_8_8
      own_abs:eq_1_8_8 own_memcpy:eq_1_8_8 own_fmin:eq_1_8_8 plt_good:eq_1_8_8 plt_now:eq_1_8_8 plt_ibt:eq_1_8_8
      dup_dynsym:eq_1_8_8 name_outside:eq_1_8_8 dup_jmprel:eq_1_8_8 lazy_slot:eq_1_8_8 plt_addend:eq_1_8_8
      shn_abs:eq_1_8_8 overlap_load:eq_1_8_8 ifunc_plt:eq_1_8_8 irelative:eq_1_8_8 tls_ie:eq_1_8_8
      object_leaf:eq_1_8_8 tls_leaf:eq_1_8_8 undef_leaf:eq_1_8_8 abs_leaf:eq_1_8_8
      et_rel:eq_1_8_8 et_exec:eq_1_8_8 et_pie:eq_1_8_8)
[ -n "$relr" ] && jobs+=(relr_ptr:eq_1_8_8,ltu_1_8_8 relr_bitmap:eq_1_8_8 relr_call:eq_1_8_8,ltu_1_8_8
                         relr_good:eq_1_8_8,ltu_1_8_8)
k=0
for j in "${jobs[@]}"; do
    name=${j%%:*}
    [ -f "$tmp/$name.so" ] || continue
    prove "$name" $(echo "${j#*:}" | tr ',' ' ') &
    k=$((k + 1)); [ $((k % 2)) -eq 0 ] && wait
done
wait

expect textrel_imm eq_1_8_8 unproven 'R_X86_64_RELATIVE at .text+0x[0-9a-f]* .*patches code.*DT_TEXTREL'
expect textrel_rodata eq_1_8_8 unproven 'patches read-only data.*DT_TEXTREL'
expect rwx_reloc eq_1_8_8 unproven 'writable and executable mapping'
if [ -n "$relr" ]; then
    expect relr_ptr eq_1_8_8 refuted 'result differs from the spec'
    expect relr_ptr ltu_1_8_8 proven-binary ''
    expect relr_bitmap eq_1_8_8 refuted 'result differs from the spec'
    expect relr_call eq_1_8_8 refuted 'result differs from the spec'
    expect relr_call ltu_1_8_8 proven-binary ''
    expect relr_good eq_1_8_8 proven-binary ''
    expect relr_good ltu_1_8_8 proven-binary ''
fi
expect ver_wrong_default eq_1_8_8 refuted 'result differs from the spec'
expect ver_three eq_1_8_8 refuted 'result differs from the spec'
expect ver_hidden_only eq_1_8_8 absent ''
expect ver_good eq_1_8_8 proven-binary ''
expect ctor_rodata eq_1_8_8 unproven 'differs from the file.*\.rodata'
expect init_rodata eq_1_8_8 unproven 'differs from the file.*\.rodata'
expect ctor_rwx eq_1_8_8 unproven 'writable and executable mapping'
expect ctor_gotplt eq_1_8_8 unproven '\.got\.plt.*differs from the file'
expect ctor_thread eq_1_8_8 unproven 'loading left 1 threads running'
expect ctor_sigalrm eq_1_8_8 unproven 'handler for SIGALRM'
expect ctor_atfork eq_1_8_8 unproven 'a fork changes the library at \.rodata'
expect ctor_daemon eq_1_8_8 unproven 'loading left a process running (pid [0-9][0-9, ]*)'
expect ctor_noexec eq_1_8_8 unproven 'not executable once loaded'
expect ctor_daz ult_1_4_32f_32f unproven 'loading changed MXCSR from 0x1f80 to 0x1fc0'
expect ctor_data_good eq_1_8_8 proven-binary ''
expect ctor_interpose eq_1_8_8 unproven 'interposer\.so.*q7hostile_helper\|q7hostile_helper.*interposer\.so'

expect own_abs eq_1_8_8 unproven 'calls or jumps to abs (.*libc\.so'
expect own_memcpy eq_1_8_8 unproven 'calls or jumps to memcpy (' # libc's, or a sanitizer's in q7pred
expect own_fmin eq_1_8_8 unproven 'calls or jumps to fmin (.*libm\.so'
expect plt_good eq_1_8_8 proven-binary ''
expect plt_now eq_1_8_8 proven-binary ''
expect plt_ibt eq_1_8_8 proven-binary ''
expect dup_dynsym eq_1_8_8 unproven '2 .dynsym entries define module__xdref_eq_1_8_8'
expect name_outside eq_1_8_8 unproven '.dynsym entr'
expect dup_jmprel eq_1_8_8 'unproven\|refuted' ''
expect lazy_slot eq_1_8_8 unproven 'bound lazily (no -z now).*not a push of its relocation index'
expect plt_addend eq_1_8_8 unproven 'has an addend (2)'
expect shn_abs eq_1_8_8 refuted 'result differs from the spec'
expect ifunc_plt eq_1_8_8 unproven 'binds to an IFUNC'
expect irelative eq_1_8_8 unproven 'R_X86_64_IRELATIVE'
expect tls_ie eq_1_8_8 unproven 'R_X86_64_TPOFF64 against q7hostile_one.*a relocation the prover does not model'
expect object_leaf eq_1_8_8 unproven 'not a function (STT_OBJECT)'
expect tls_leaf eq_1_8_8 unproven 'not a function (STT_TLS)'
expect undef_leaf eq_1_8_8 absent ''
expect abs_leaf eq_1_8_8 unproven 'an absolute symbol'
refused() { # name pattern: exit 2, one line naming it
    if [ "$(cat "$tmp/$1.rc")" = 2 ] && [ "$(wc -l <"$tmp/$1.out")" = 1 ] && grep -q -- "$2" "$tmp/$1.out"; then
        ok "$1: refused, exit 2: $(cat "$tmp/$1.out")"
    else bad "$1: exit $(cat "$tmp/$1.rc"), want 2 and one line matching '$2'"; cat "$tmp/$1.out"; fi
}
refused overlap_load "PT_LOADs at 0x[0-9a-f]* and 0x[0-9a-f]* overlap"
refused et_rel "no dynamic symbol table\|ET_REL"
refused et_exec "executable (ET_EXEC), not a shared library"
refused et_pie "position-independent executable (DF_1_PIE)"
# the header line's report of what differs (docs/report-format.md): the
# constructor's two bytes in .rodata, named, with the file's and the
# loaded values; none for a control; two loads at two bases, also where
# addresses are not randomized (setarch -R)
"$PYTHON" - "$tmp" <<'PY' || fail=1
import json, os, subprocess, sys
tmp = sys.argv[1]
env = dict(os.environ, PYTHONPATH='prover')
out = {}
norandom = ['setarch', os.uname().machine, '-R']   # addresses not randomized: the second load moves all the same
if subprocess.run(norandom + ['true'], capture_output=True).returncode != 0:
    norandom = []
    print('note: no setarch -R here: the loads are not tried without address randomization')
for name in ('ctor_rodata', 'plt_good'):
    lines = subprocess.run(norandom + [os.environ['PYTHON'], '-m', 'q7prove.binary', '--lib',
                                       os.path.join(tmp, name + '.so'), '--table', os.path.join(tmp, 'table.json'),
                                       '--leaf', 'eq_1_8_8', '--loader', os.environ['Q7PRED']],
                           env=env, capture_output=True, text=True).stdout.splitlines()
    out[name] = json.loads(lines[0]).get('image') if lines else None
img = out['ctor_rodata']
good = (img and img['loads'] == 2 and len(set(img['bases'])) == 2 and img['differing_bytes'] == 2 and
        img['differs'] and img['differs'][0]['where'] == '.rodata+0x0' and img['differs'][0]['file'] != img['differs'][0]['loaded'])
print('%s: ctor_rodata: the header reports %s' % ('ok' if good else 'FAIL', json.dumps(img)[:300]))
ctl = out['plt_good']
good2 = (ctl and ctl['differing_bytes'] == 0 and not ctl['differs'] and not ctl['problems'] and
         len(set(ctl['bases'])) == 2)
print('%s: plt_good: the header reports nothing differing (%s)' % ('ok' if good2 else 'FAIL', json.dumps(ctl)[:200]))
sys.exit(0 if good and good2 else 1)
PY
exit $fail
