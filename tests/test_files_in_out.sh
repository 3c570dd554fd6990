#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The files a command writes never replace the files it reads, and no file
# it reads holds it (docs/report-format.md, "Files in and out"):
# - every output (--json, --markdown, --junit, --html, --checkpoint and
#   its FILE.tmp and FILE.lock, --write-table) naming an input (--lib, --preload, --abi, a REPORT,
#   --resume, --proofs, a testfloat corpus file, --python, --numpy-oracle)
#   by the same spelling, a symbolic link or a hard link, in prove,
#   verify, probe, report, merge and bench: exit 2 before anything runs,
#   one line naming both options, the input byte for byte as it was;
#   likewise an output on stdout redirected to an input, and an empty
#   output or input path; --resume and --checkpoint naming one file stays
#   allowed (a resumed run writes on);
# - --checkpoint through a symbolic link writes the link's file and keeps
#   the link, as --json does; a FIFO or a link planted at its .tmp is
#   replaced, never waited on or written through;
# - a FIFO with no writer as any text input (--abi, --resume, report,
#   merge, exec, --proofs, a testfloat file) reads as empty and is refused
#   at once; as a library (--lib, --preload) or the numpy oracle's program
#   it is refused by name; one that sends a report is read (report
#   <(cat r.json)). (A writer that sends nothing: tests/test_hostile_inputs.sh.)
set -u
. "$(dirname "$0")/support/check_lib.sh"
cd "$t" || exit 1

cp "$Q7LIB" lib.so
ln -s lib.so link.so
ln lib.so hard.so
cp lib.so pristine.so
small=(--oracles sem --corpus grid --leaf lt_1_8_8 --no-progress --quiet)
"$Q7PRED" probe --lib lib.so --leaf lt_1_8_8 --json probe.json >/dev/null 2>&1 || bad "probe of the library"
"$Q7PRED" verify --lib lib.so "${small[@]}" --shard 1/1 --json rep.json >/dev/null 2>&1 || bad "verify of the library"
printf '{"leaves": [{"leaf": "lt_1_8_8", "status": "proven-binary"}]}\n' >proofs.json
printf 'f16_lt\n3C00 4000 1 00\n' >tf.txt
for f in probe.json rep.json proofs.json tf.txt; do cp "$f" "$f.orig"; done

# refused NAME TEXT ARGS...: exit 2, one line on stderr holding TEXT, every
# input as it was
refused() {
    local name=$1 want=$2 rc changed=""
    shift 2
    timeout 60 "$Q7PRED" "$@" >out 2>err </dev/null; rc=$?
    cmp -s lib.so pristine.so || changed="lib.so"
    for f in probe.json rep.json proofs.json tf.txt; do cmp -s "$f" "$f.orig" || changed="$changed $f"; done
    if [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$want" err && [ -z "$changed" ] && [ -L link.so ]; then
        ok "$name: $want"
    else
        bad "$name: exit $rc, want 2 and '$want'; stderr: $(head -c 300 err); changed:${changed:- none}"
        cp pristine.so lib.so
        for f in probe.json rep.json proofs.json tf.txt; do cp "$f.orig" "$f"; done
    fi
}
same="would replace the file"
other="are one file: writing one would replace what the run reads"

# ---- prove
refused "prove --json on --lib" "prove: --json 'lib.so' $same --lib reads" prove --lib lib.so --json lib.so
refused "prove --markdown on a link to --lib" "prove: --markdown 'link.so' and --lib 'lib.so' $other" \
    prove --lib lib.so --markdown link.so
refused "prove --junit on a hard link to --lib" "prove: --junit 'hard.so' and --lib 'lib.so' $other" \
    prove --lib lib.so --junit hard.so
refused "prove --json on --abi" "prove: --json 'probe.json' $same --abi reads" \
    prove --lib lib.so --abi probe.json --json probe.json
refused "prove --write-table on --lib" "prove: --write-table 'lib.so' $same --lib reads" \
    prove --lib lib.so --write-table lib.so
refused "prove --json on --python" "prove: --json './lib.so' and --python 'lib.so' $other" \
    prove --lib pristine.so --python lib.so --json ./lib.so
refused "prove --json ''" "prove: --json is given an empty file name" prove --lib lib.so --json ""
refused "prove --lib ''" "prove: --lib is given an empty file name" prove --lib "" --json p.json

# ---- verify
for o in --json --markdown --junit --html --checkpoint; do
    refused "verify $o on --lib" "verify: $o 'lib.so' $same --lib reads" verify --lib lib.so "${small[@]}" $o lib.so
done
refused "verify lib:PATH of --oracles" "verify: --json 'link.so' and --lib 'lib.so' $other" \
    verify --oracles sem,lib:lib.so --corpus grid --leaf lt_1_8_8 --quiet --json link.so
refused "verify --json on --preload" "verify: --json 'hard.so' and --preload 'link.so' $other" \
    verify --lib pristine.so --preload link.so "${small[@]}" --json hard.so
refused "verify --html on --abi" "verify: --html 'probe.json' $same --abi reads" \
    verify --lib lib.so --abi probe.json "${small[@]}" --html probe.json
refused "verify --json on --resume" "verify: --json 'rep.json' $same --resume reads" \
    verify "${small[@]}" --resume rep.json --json rep.json
refused "verify --markdown on --proofs" "verify: --markdown 'proofs.json' $same --proofs reads" \
    verify "${small[@]}" --html v.html --proofs proofs.json --markdown proofs.json
refused "verify --junit on a testfloat file" "verify: --junit 'tf.txt' $same --corpus testfloat reads" \
    verify --oracles sem --corpus testfloat:f16_lt:tf.txt --leaf olt_1_2_16f_16f --quiet --junit tf.txt
refused "verify --checkpoint on --numpy-oracle" "verify: --checkpoint 'tf.txt' $same --numpy-oracle reads" \
    verify --oracles sem,numpy --numpy-oracle tf.txt --corpus grid --leaf lt_1_8_8 --checkpoint tf.txt
cp lib.so ck4.json.tmp && cp lib.so ck4.json.tmp.orig
refused "verify --checkpoint whose .tmp is --lib" "verify: --checkpoint (its .tmp) '$PWD/ck4.json.tmp' and --lib 'ck4.json.tmp' $other" \
    verify --lib ck4.json.tmp "${small[@]}" --checkpoint ck4.json
cmp -s ck4.json.tmp ck4.json.tmp.orig && ok "the library named like the checkpoint's .tmp is left as it was" \
    || bad "ck4.json.tmp was changed"
refused "verify --json and --checkpoint one file" "verify: --json and --checkpoint both write 'ck.json'" \
    verify "${small[@]}" --json ck.json --checkpoint ck.json
refused "verify --json ''" "verify: --json is given an empty file name" verify "${small[@]}" --json ""
refused "verify --html ''" "verify: --html is given an empty file name" verify "${small[@]}" --html ""
# the one pair that is allowed: a resumed run writes on to its checkpoint
"$Q7PRED" verify "${small[@]}" --oracles sem,host --checkpoint ck.json >/dev/null 2>&1
"$Q7PRED" verify "${small[@]}" --oracles sem,host --resume ck.json --checkpoint ck.json >out 2>err; rc=$?
[ $rc -eq 0 ] && grep -q '^PASS' out && ok "verify --resume and --checkpoint one file: resumed (exit 0)" \
    || bad "verify --resume ck.json --checkpoint ck.json: exit $rc, $(cat err)"

# ---- probe, report, merge, bench
refused "probe --json on --lib" "probe: --json 'link.so' and --lib 'lib.so' $other" probe --lib lib.so --json link.so
refused "probe --json on --preload" "probe: --json 'hard.so' and --preload 'link.so' $other" \
    probe --lib pristine.so --preload link.so --json hard.so
refused "probe --json ''" "probe: --json is given an empty file name" probe --lib lib.so --json ""
for o in --json --markdown --junit --html; do
    refused "report $o on REPORT" "report: $o 'rep.json' $same REPORT reads" report rep.json $o rep.json
    refused "merge $o on a REPORT" "merge: $o 'rep.json' $same REPORT reads" merge rep.json $o rep.json
done
refused "report --markdown on --proofs" "report: --markdown 'proofs.json' $same --proofs reads" \
    report rep.json --html r.html --proofs proofs.json --markdown proofs.json
refused "merge --junit ''" "merge: --junit is given an empty file name" merge rep.json --junit ""
refused "bench --json on --lib" "bench: --json 'hard.so' and --lib 'lib.so' $other" bench --quick --lib lib.so --json hard.so
# stdout redirected to an input: '-' is that file
timeout 60 "$Q7PRED" report rep.json --json - >>rep.json 2>err; rc=$?
cmp -s rep.json rep.json.orig && [ $rc -eq 2 ] && grep -qF "report: --json '-' and REPORT 'rep.json' are one file (stdout)" err \
    && ok "report --json - with stdout appended to REPORT: refused, REPORT as it was" \
    || { bad "report --json - >>rep.json: exit $rc, $(cat err)"; cp rep.json.orig rep.json; }

# ---- --checkpoint through a symbolic link, and what is planted beside it
echo old >real.json
ln -s real.json cklink.json
"$Q7PRED" verify "${small[@]}" --oracles sem,host --checkpoint cklink.json >/dev/null 2>&1; rc=$?
if [ $rc -eq 0 ] && [ -L cklink.json ] && [ "$(readlink cklink.json)" = real.json ] &&
    "$PYTHON" -c 'import json,sys; assert json.load(open(sys.argv[1]))["format"] == "q7pred-verify-report"' real.json; then
    ok "--checkpoint through a link: the link kept, its file the checkpoint (as --json writes through one)"
else bad "--checkpoint through a link: exit $rc, $(ls -l cklink.json real.json)"; fi
mkfifo ck2.json.tmp
timeout 60 "$Q7PRED" verify "${small[@]}" --oracles sem,host --checkpoint ck2.json >/dev/null 2>err; rc=$?
[ $rc -eq 0 ] && [ -f ck2.json ] && [ ! -e ck2.json.tmp ] && ok "a FIFO at the checkpoint's .tmp: replaced, not waited on" \
    || bad "a FIFO at ck2.json.tmp: exit $rc, $(cat err)"
echo keep >victim
ln -s victim ck3.json.tmp
timeout 60 "$Q7PRED" verify "${small[@]}" --oracles sem,host --checkpoint ck3.json >/dev/null 2>err; rc=$?
[ $rc -eq 0 ] && [ "$(cat victim)" = keep ] && [ -f ck3.json ] && ok "a link at the checkpoint's .tmp: never written through" \
    || bad "a link at ck3.json.tmp: exit $rc, victim '$(cat victim)'"

# ---- FIFOs as inputs
mkfifo fifo
s0=$SECONDS
refused "--abi a FIFO" "verify: --abi 'fifo' is not JSON: unexpected end at byte 0" verify --lib lib.so --abi fifo "${small[@]}"
refused "--resume a FIFO" "verify: --resume: 'fifo' is not JSON" verify "${small[@]}" --resume fifo
refused "report a FIFO" "report: 'fifo' is not JSON" report fifo
refused "merge a FIFO" "merge: 'fifo' is not JSON" merge fifo
refused "--proofs a FIFO" "list: --proofs: fifo: unexpected end at byte 0" list --proofs fifo
refused "testfloat a FIFO" "verify: testfloat: 'fifo' has no test cases" \
    verify --oracles sem --corpus testfloat:f16_lt:fifo --leaf olt_1_2_16f_16f --quiet
refused "--lib a FIFO" "verify: cannot load library 'fifo': it is a FIFO, not a library file" verify --lib fifo "${small[@]}"
refused "--preload a FIFO" "cannot load --preload 'fifo': it is a FIFO, not a library file" \
    verify --lib lib.so --preload fifo "${small[@]}"
refused "prove --lib a FIFO" "prove: cannot read 'fifo': it is a FIFO, not a regular file" prove --lib fifo
refused "--numpy-oracle a FIFO" "cannot read numpy oracle program 'fifo': it is a FIFO, not a regular file" \
    verify --oracles sem,numpy --numpy-oracle fifo --corpus grid --leaf lt_1_8_8
timeout 60 "$Q7PRED" exec fifo >out 2>err; rc=$?
[ $rc -eq 0 ] && grep -q '^0 statements' err && ok "exec of a FIFO with no writer: an empty program, at once" \
    || bad "exec fifo: exit $rc, $(cat err)"
[ $((SECONDS - s0)) -lt 60 ] && ok "no FIFO held a command ($((SECONDS - s0)) s for all)" || bad "FIFOs took $((SECONDS - s0)) s"
"$Q7PRED" report --quiet <(cat rep.json) >out 2>err; rc=$?
[ $rc -eq 0 ] && grep -q '^PASS' out && ok "report <(cat r.json): a stream with a report is read" || bad "report <(...): exit $rc, $(cat err)"
exit $fail
