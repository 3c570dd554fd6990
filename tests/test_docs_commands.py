# SPDX-License-Identifier: BSD-3-Clause
# slow: every command the docs show, run (about 30 s)
# exclusive: python-package (runs the docs' q7pred.load examples against $BUILD/python, built if missing)
"""Every command of README.md and docs/*.md that a reader may copy.

From each code block (fenced, or indented by four spaces) every line whose
command is `q7pred`, `build/q7pred` or `make` (also the q7pred command of a
`parallel ... q7pred ...` line, quoted or not), continuation lines joined, is checked so
that a renamed leaf, family or flag, or a removed make target, fails here:

- every --option must be one the subcommand's --help names, every --leaf
  and --family value (and a make LEAF=) a row of the tables, every word
  shaped like a leaf's name a leaf, every make target a target of the
  Makefile or mk/*.mk, every make TARGET= a fuzz target;
- a make command is dry-run (`make -n`: nothing built or run), so a
  target whose prerequisites or sub-makes no longer resolve fails;
- a q7pred command that can run here runs, in a scratch directory, with a
  small corpus where it would take long (verify gets --fuzz-count 20
  --exhaustive-max 256 appended): exit 0 or 1, never the usage error 2.
  The vendor library's placeholder paths (/path/to/libfiss-base.so, ...)
  become this build's library (/path/to/old/libfiss-base.so, the release
  before, a copy of it), the scheduler's variables ($N, {},
  $SLURM_ARRAY_TASK_ID, ...) small numbers, a pod's /reports volume the
  scratch directory's reports/, and a `cat > FILE <<'EOF'` of
  the same block writes FILE first; examples/ is the repository's. prove
  runs where the interpreter has z3 and capstone (else it is only checked),
  on three leaves unless the command names its own (a prove --all, which
  takes no --leaf, is only checked). A command that needs
  what a run here cannot have (a synopsis with <...> or [...], a file no
  command made, bench, merge of shards never run) is only checked as above;
- a ```python block that loads a library (q7pred.load) runs as a doctest,
  in the same scratch directory and with the same paths, against the
  package in $BUILD/python (built first if it is not there).
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
Q7 = os.environ.get("Q7PRED") or os.path.join(SRC, "build", "q7pred")
LIB = os.environ.get("Q7LIB") or os.path.join(SRC, "build", "libq7pred.so")
BUILD = os.path.join(SRC, os.environ.get("BUILD", "build"))

VENDOR = re.compile(r"/(path/to|shared|shared/fiss|opt/fiss)/libfiss-base\.so")
# the release before the vendor library's: a copy of this build's library
# (another file, the same code) in the scratch directory
OLD_VENDOR = re.compile(r"/path/to/old/libfiss-base\.so")
VARS = {"N": "4", "K": "1", "SLURM_ARRAY_TASK_ID": "1", "SLURM_CPUS_PER_TASK": "1", "JOB_COMPLETION_INDEX": "0"}
LEAFLIKE = re.compile(r"^(module__xdref_)?[a-z][a-z0-9]*_[0-9][0-9a-z_]*$")
# prove runs where python3-z3 and python3-capstone are (one leaf of three,
# unless a --leaf is given: the whole table is tests/test_prove_binary.sh's)
RUNNABLE = ("list", "call", "demo", "verify", "exec", "probe", "help", "prove", "report", "diff")
PROVER = subprocess.run([os.environ.get("PYTHON", "/usr/bin/python3"), "-c", "import z3, capstone"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

failures, checked, ran, dry = [], 0, 0, 0


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))


def run(argv, cwd, timeout=120, stdin=None):
    p = subprocess.run(argv, cwd=cwd, stdin=stdin or subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# the subcommands, from the command table as `q7pred help` lists it
SUBCOMMANDS = tuple(re.findall(r"^  (\S+) ", re.search(r"^Commands:\n((?:  \S.*\n)+)", run([Q7, "help"], SRC)[1],
                                                      re.M).group(1), re.M))
listing = json.loads(run([Q7, "list", "--json"], SRC)[1])
LEAVES = {x["suffix"] for x in listing["leaves"]}
FAMILIES = {x["family"] for x in listing["leaves"]}
HELP = {s: run([Q7, s, "--help"], SRC)[1] + run([Q7, s, "--help"], SRC)[2] for s in SUBCOMMANDS}


def make_targets():
    names = set()
    for f in [os.path.join(SRC, "Makefile")] + glob.glob(os.path.join(SRC, "mk", "*.mk")):
        for line in open(f):
            m = re.match(r"^([A-Za-z0-9_. -]+?)\s*:(?!=)", line)
            if m and "$" not in m.group(1):
                names.update(m.group(1).split())
            m = re.match(r"^\.PHONY\s*:(.*)", line)
            if m:
                names.update(m.group(1).split())
    return names


TARGETS = make_targets()
FUZZ = re.search(r"^FUZZ_TARGETS\s*:=\s*(.*)$", open(os.path.join(SRC, "mk", "fuzz.mk")).read(), re.M).group(1).split()


def blocks(path):
    """(first line number, [lines], language) of each code block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((i + 2, lines[i + 1:j], lines[i][3:].strip()))
            i = j + 1
        elif lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            out.append((i + 1, [l[4:] for l in lines[i:j]], ""))
            i = j
        else:
            i += 1
    return out


def strip_comment(line):
    """The line without a trailing # comment (not inside quotes)."""
    q = None
    for k, c in enumerate(line):
        if q:
            q = None if c == q else q
        elif c in "'\"":
            q = c
        elif c == "#" and (k == 0 or line[k - 1].isspace()):
            return line[:k].rstrip()
    return line.rstrip()


def commands(block):
    """(offset, command text, heredocs written before it) of the block."""
    out, files, k = [], {}, 0
    while k < len(block):
        raw = block[k]
        m = re.match(r"^\s*cat\s*>\s*(\S+)\s*<<\s*'?(\w+)'?\s*$", raw)
        if m:   # a heredoc that writes a file for the commands after it
            end = k + 1
            while end < len(block) and block[end].strip() != m.group(2):
                end += 1
            files[m.group(1)] = "\n".join(block[k + 1:end]) + "\n"
            k = end + 1
            continue
        start, text = k, strip_comment(raw)
        while text.endswith("\\") and k + 1 < len(block):
            k += 1
            text = text[:-1] + " " + strip_comment(block[k]).strip()
        k += 1
        text = text.strip()
        if text.startswith("$ "):
            text = text[2:]
        if text.startswith("parallel ") and re.search(r"[\s'\"]q7pred ", text):
            # the shard's command, without the shell line around it
            text = re.split(r"[\s'\"](?=q7pred )", text, 1)[1].split(" ::: ")[0]
            text = re.split(r";\s|'\s*$", text)[0]
        first = text.split(" ", 1)[0]
        if first in ("q7pred", "build/q7pred", "make"):
            out.append((start, text, dict(files)))
    return out


def expand(text, scratch):
    text = OLD_VENDOR.sub(os.path.join(scratch, "old", "libfiss-base.so"), text)
    text = VENDOR.sub(LIB, text)
    text = re.sub(r"(?<=[\s\"'])/reports/", "reports/", text)   # a pod's volume: the scratch folder's
    text = text.replace("{}", "1")
    for v, val in VARS.items():
        text = re.sub(r"\$\{?%s\}?(?![A-Za-z0-9_])" % v, val, text)
    return text


def check_make(where, words):
    global dry
    for w in words[1:]:
        if "=" in w:
            var, val = w.split("=", 1)
            if var == "LEAF" and val not in LEAVES:
                fail(where, "make LEAF=%s is not a leaf" % val)
            if var == "TARGET" and not set(val.split()) <= set(FUZZ):
                fail(where, "make TARGET=%s names no fuzz target (%s)" % (val, " ".join(FUZZ)))
        elif not w.startswith("-") and w not in TARGETS:
            fail(where, "make %s: no such target" % w)
            return
    # a dry run (make -n: nothing is built or run, a sub-make dry too)
    # resolves every prerequisite and variable the recipe needs
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "-n", "-s", "BUILD=" + os.environ.get("BUILD", "build")] + words[1:], cwd=SRC,
                       env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=120)
    dry += 1
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().split("\n")
        fail(where, "make -n %s fails: %s" % (" ".join(words[1:]), err[-1][:300] if err else "exit %d" % p.returncode))


def check_words(where, sub, words):
    """The static checks; returns whether the command can run here."""
    runnable = sub in RUNNABLE
    for k, w in enumerate(words):
        if any(c in w for c in "<>[]") or w in ("...", "…") or w.endswith("..."):
            runnable = False      # a synopsis
            continue
        if w.startswith("--") and len(w) > 2:
            opt = w.split("=", 1)[0]
            if not re.search(r"(?<![A-Za-z0-9-])%s(?![A-Za-z0-9-])" % re.escape(opt), HELP[sub]):
                fail(where, "q7pred %s has no option %s (its --help does not name it)" % (sub, opt))
        prev = words[k - 1] if k else ""
        if prev == "--leaf":
            for leaf in w.split(","):
                if leaf not in LEAVES and leaf.replace("module__xdref_", "") not in LEAVES:
                    fail(where, "--leaf %s is not a leaf of the table" % leaf)
        elif prev == "--family":
            for fam in w.split(","):
                if fam not in FAMILIES:
                    fail(where, "--family %s is not a family" % fam)
        elif LEAFLIKE.match(w) and not w.startswith("--") and re.search(r"_[0-9]+f?_", w + "_"):
            if w.replace("module__xdref_", "") not in LEAVES:
                fail(where, "%s is not a leaf of the table" % w)
    return runnable


def inputs_missing(words, cwd):
    """An input file the command names that is not there (it reads it)."""
    for k, w in enumerate(words):
        prev = words[k - 1] if k else ""
        path = None
        if prev in ("--lib", "--preload", "--abi", "--resume", "--proofs", "--reference"):
            path = w
        elif w.startswith("testfloat:"):
            path = w.split(":")[-1]
        elif words[1] in ("exec", "merge", "report", "diff") and k >= 2 and not w.startswith("-") \
                and prev not in ("--json", "--markdown", "--junit", "--html"):
            path = w
        if path and path != "-" and not glob.glob(os.path.join(cwd, path)):
            return path
    return None


def try_command(where, text, files, scratch):
    global checked, ran
    text = expand(text, scratch)
    try:
        words = shlex.split(text)
    except ValueError as e:
        if "<" not in text:
            fail(where, "cannot be read as a shell command: %s" % e)
            return
        words = text.split()   # a synopsis ("<the run's options>"): its words are checked
    if len(words) > 1 and words[1].endswith(":"):
        return                 # a line of sample output ("q7pred verify: grid, ...")
    checked += 1
    if words[0] == "make":
        check_make(where, words)
        return
    words = [w if not w.startswith("build/") else os.path.join(BUILD, w[len("build/"):]) for w in words]
    words[0] = Q7
    if len(words) < 2 or words[1] not in SUBCOMMANDS:
        if len(words) < 2 or words[1] not in ("--help", "--version"):
            fail(where, "q7pred %s: no such subcommand" % (words[1] if len(words) > 1 else ""))
        return
    sub = words[1]
    if not check_words(where, sub, words[2:]):
        return
    for name, body in files.items():
        with open(os.path.join(scratch, name), "w") as f:
            f.write(body)
    os.makedirs(os.path.join(scratch, "reports"), exist_ok=True)
    if inputs_missing(words, scratch):
        return
    if sub == "verify" and "--help" not in words:
        words += ["--fuzz-count", "20", "--exhaustive-max", "256", "--no-progress", "--quiet"]
    if sub == "prove" and "--help" not in words:
        if not PROVER:
            return
        if "--all" in words:
            return             # every export, no --leaf: tests/test_prove_all.sh runs it
        if "--leaf" not in words:
            words += ["--leaf", "lt_1_8_8", "--leaf", "olt_1_1_16f_16f", "--leaf", "clsfy_16f_16f"]
    rc, out, err = run(words, scratch)
    ran += 1
    # verify, prove and diff say what they found by exit 1; the others fail by it
    if rc not in (0, 1) or (sub not in ("verify", "prove", "diff") and rc != 0):
        fail(where, "exit %d: %s" % (rc, (err or out).strip().split("\n")[-1][:300]))


def python_package():
    """$BUILD/python with the package built (as make python builds it), or
    None with the reason printed."""
    where = os.path.join(BUILD, "python")
    if not glob.glob(os.path.join(where, "q7pred", "_core*.so")):
        py = os.environ.get("PYTHON", "/usr/bin/python3")
        p = subprocess.run([py, "setup.py", "-q", "build_py", "--build-lib", where, "build_ext", "--build-lib", where,
                            "--build-temp", os.path.join(BUILD, "python-temp")], cwd=os.path.join(SRC, "python"),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        if p.returncode != 0:
            print(p.stdout.decode("utf-8", "replace")[-2000:])
            return None
    return where


def try_python(where, block, scratch):
    """A python block that loads a library: its >>> lines as a doctest."""
    global checked, ran
    text = "\n".join(block)
    if ">>>" not in text or "q7pred.load(" not in text:
        return
    checked += 1
    package = python_package()
    if not package:
        fail(where, "the Python package could not be built to run this block")
        return
    text = VENDOR.sub(LIB, text).replace('"build/', '"%s/' % BUILD)
    code = ("import doctest, sys\ntest = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, %r, %r, 0)\n"
            "r = doctest.DocTestRunner().run(test)\nsys.exit(1 if r.failed or not r.attempted else 0)\n" % (where, where))
    env = dict(os.environ, PYTHONPATH=package)
    p = subprocess.run([os.environ.get("PYTHON", "/usr/bin/python3"), "-c", code], cwd=scratch, input=text.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, timeout=300)
    ran += 1
    if p.returncode != 0:
        fail(where, "the doctest fails: %s" % p.stdout.decode("utf-8", "replace")[-1500:])


docs = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
with tempfile.TemporaryDirectory() as scratch:
    os.makedirs(os.path.join(scratch, "old"))
    shutil.copyfile(LIB, os.path.join(scratch, "old", "libfiss-base.so"))
    os.symlink(os.path.join(SRC, "examples"), os.path.join(scratch, "examples"))
    for path in docs:
        rel = os.path.relpath(path, SRC)
        for line0, block, lang in blocks(path):
            if lang == "python":
                try_python("%s:%d" % (rel, line0), block, scratch)
                continue
            for off, text, files in commands(block):
                try_command("%s:%d" % (rel, line0 + off), text, files, scratch)

for f in failures:
    print("FAIL: " + f)
print("%d commands of README.md and docs/*.md checked, %d of them run, %d make commands dry-run; %d failures"
      % (checked, ran, dry, len(failures)))
sys.exit(1 if failures else 0)
