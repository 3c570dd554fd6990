# SPDX-License-Identifier: BSD-3-Clause
"""The help texts of every command, from the command table (`q7pred help`
lists it), held to one layout (docs/decisions.md, "Help texts"), and
`q7pred help` itself:

- `q7pred help`, `q7pred --help` and `q7pred -h` print the overview (exit
  0); `q7pred` alone prints it on stderr (exit 2); `q7pred help C`,
  `q7pred C --help` and `q7pred C -h` print the same text (exit 0, nothing
  on stderr) for every command C, `help` included; `q7pred help nosuch`
  and `q7pred nosuch` are one line naming every command (exit 2), with the
  nearest for a typo; `q7pred help a b` is a usage error.
- The layout: printable ASCII, at most 80 columns, no trailing blank; a
  synopsis of `usage: q7pred C ...` lines (more forms as `       q7pred C
  ...`, a long one continued deeper), a blank line, a description at
  column 0; every other line at column 0, 2 (an option, an item of a list,
  an example) or 22 and beyond (a description); an option's or item's
  description starts at column 22, on its line when the head leaves room,
  else on the next; an `Exit status:` paragraph; `examples:` last, each
  example a line `  q7pred C ...` using only C's options.
- The options: spelled --lower-case (or -h); every option of the option
  lines on the synopsis with the same metavariable and every option of the
  synopsis on an option line (--help excepted: every command takes it);
  metavariables from one vocabulary (VOCABULARY); an option takes the same
  metavariable in every command that has it (the --json of list and exec,
  which print JSON on stdout instead of their text, is the one option that
  takes none there: EXCEPTIONS).
- The parser agrees: every option a help text names is one its command's
  parser takes, and every option spelled in a command's sources
  (src/tools/cli/cmd_C*.c, its table src/tools/cli/options/C.def), in the shared
  options (src/tools/cli/options/shared.def) or in
  any other help text is refused as unknown by every command whose help
  does not name it (checked by giving it with a value, then an unknown
  option, so that nothing runs).
"""
import glob
import os
import re
import subprocess
import sys

SRC = os.environ.get("SRCDIR") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
Q7 = os.environ.get("Q7PRED") or os.path.join(SRC, "build", "q7pred")

DESC_COL = 22       # where every description starts
MAX_COLS = 80
VOCABULARY = {
    "FILE": "a file the command reads or writes (a report, a checkpoint, a probe's JSON)",
    "PATH": "a program or library to load or run",
    "N": "a count",
    "[CAT=]N": "a count, for one category or every leaf",
    "K/N": "a shard of N",
    "SECONDS": "a time",
    "LEAF": "a leaf's suffix or symbol",
    "FAMILY": "a family of the leaf table",
    "LIST": "a comma list",
    "NAME": "one of a fixed set of names",
    # operands
    "COMMAND": "a subcommand",
    "ARG": "an operand",
    "PROGRAM": "a program file",
    "REPORT": "a JSON report",
}
# option -> commands where it takes no value though others give it one
EXCEPTIONS = {"--json": {"list", "exec"}}

failures = []


def fail(where, msg):
    failures.append("%s: %s" % (where, msg))


def run(*args):
    p = subprocess.run([Q7] + list(args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# ---- the overview and the command table
rc, overview, err = run("help")
if rc != 0 or err:
    fail("q7pred help", "exit %d, stderr %r" % (rc, err))
for alias in (["--help"], ["-h"]):
    r = run(*alias)
    if r != (0, overview, ""):
        fail("q7pred " + alias[0], "not the overview of q7pred help (exit %d)" % r[0])
r = run()
if r[0] != 2 or r[1] or r[2] != overview:
    fail("q7pred", "alone: want the overview on stderr and exit 2, got exit %d" % r[0])
m = re.search(r"^Commands:\n((?:  \S.*\n)+)", overview, re.M)
COMMANDS = [line.split()[0] for line in m.group(1).splitlines()] if m else []
if "help" not in COMMANDS or len(COMMANDS) < 9:
    fail("q7pred help", "no Commands: section listing every command, help included: %r" % COMMANDS)

for argv in (["help", "nosuch"], ["nosuch"]):
    rc, out, err = run(*argv)
    lines = err.splitlines()
    named = all(re.search(r"\b%s\b" % re.escape(c), err) for c in COMMANDS)
    if rc != 2 or out or len(lines) != 1 or "unknown command 'nosuch'" not in err or not named:
        fail("q7pred " + " ".join(argv), "want one line naming every command, exit 2; got exit %d: %r" % (rc, err))
rc, _, err = run("help", "verifx")
if rc != 2 or "did you mean verify?" not in err:
    fail("q7pred help verifx", "no 'did you mean verify?' (exit %d: %r)" % (rc, err))
rc, _, err = run("help", "list", "call")
if rc != 2 or len(err.splitlines()) != 1:
    fail("q7pred help list call", "want one usage error line, exit 2; got exit %d: %r" % (rc, err))

# ---- every command's text
TEXTS = {}
for c in COMMANDS:
    rc, text, err = run("help", c)
    if rc != 0 or err or not text:
        fail("q7pred help " + c, "exit %d, stderr %r" % (rc, err))
    for alias in (["--help"], ["-h"]):
        if run(c, *alias) != (0, text, ""):
            fail("q7pred %s %s" % (c, alias[0]), "not the text of q7pred help %s" % c)
    TEXTS[c] = text
if run("help", "help")[1] != run("help", "--help")[1]:
    fail("q7pred help help", "differs from q7pred help --help")

OPT = re.compile(r"--[a-z][a-z0-9-]*|-h(?![a-z0-9-])")
USAGE_OPT = re.compile(r"(--[a-z][a-z0-9-]*|-h)(?: (\[[A-Z]+=\][A-Z]+|[A-Z][A-Z0-9/]*))?")


def head_and_desc(line, where):
    """The head of an indented-2 line (an option or item), its description
    held to column 22: on its line, or, when the head is too long for
    that, on the next."""
    if len(line) > DESC_COL and line[DESC_COL - 1] == " " and line[DESC_COL] != " ":
        head = line[2:DESC_COL - 1].rstrip()
    else:
        head = line[2:]
        if 2 + len(head) < DESC_COL - 1 and not head.startswith("q7pred"):
            fail(where, "a short head with its description not on its line: %r" % line)
    if "  " in head:
        fail(where, "description not at column %d: %r" % (DESC_COL, line))
    return head


def check_text(c, text):
    """The layout rules; returns the options of the option lines and of the
    synopsis, each {flag: metavar or None}."""
    where = "q7pred help %s" % c
    lines = text.split("\n")
    if lines[-1] != "":
        fail(where, "does not end with a newline")
    lines = lines[:-1]
    for n, line in enumerate(lines, 1):
        if any(ord(ch) < 32 or ord(ch) > 126 for ch in line):
            fail(where, "line %d is not printable ASCII: %r" % (n, line))
        if len(line) > MAX_COLS:
            fail(where, "line %d is %d columns (at most %d): %r" % (n, len(line), MAX_COLS, line))
        if line != line.rstrip():
            fail(where, "line %d ends in blanks" % n)
    word = "COMMAND" if c == "overview" else c
    if not lines or not lines[0].startswith(("usage: q7pred %s" % ("" if c == "overview" else c)).rstrip()):
        fail(where, "does not start with 'usage: q7pred %s'" % word)
        return {}, {}
    k = 1
    synopsis = [lines[0]]
    while k < len(lines) and lines[k]:
        if not (lines[k].startswith("       q7pred ") or re.match(r" {8,}\S", lines[k])):
            fail(where, "synopsis line %d is neither a form '       q7pred ...' nor a continuation" % (k + 1))
        synopsis.append(lines[k])
        k += 1
    if k + 1 >= len(lines) or not lines[k + 1] or lines[k + 1][0] == " ":
        fail(where, "no description at column 0 after the synopsis")
    opts, examples, in_examples, prev_indent = {}, [], False, 0
    for n in range(k + 1, len(lines)):
        line = lines[n]
        indent = len(line) - len(line.lstrip(" "))
        if not line:
            in_examples = False if not examples else in_examples
            prev_indent = 0
            continue
        if in_examples:
            if indent != 2 or not line[2:].startswith("q7pred"):
                fail(where, "an example is not '  q7pred ...': %r" % line)
            examples.append(line[2:])
            continue
        if line == "examples:":
            in_examples = True
            continue
        if indent not in (0, 2) and indent < DESC_COL:
            fail(where, "line %d at column %d (0, 2 or %d and beyond): %r" % (n + 1, indent, DESC_COL, line))
        if indent >= DESC_COL and prev_indent == 0:
            fail(where, "line %d: a description with no head before it: %r" % (n + 1, line))
        if indent == 2:
            head = head_and_desc(line, where)
            if head.startswith("-"):
                for part in head.split(", "):
                    m = re.match(r"(--[a-z][a-z0-9-]*|-h)(?: (\S+))?$", part)
                    if not m:
                        fail(where, "an option head that is not '--option [METAVAR]': %r" % part)
                        continue
                    opts[m.group(1)] = m.group(2)
        prev_indent = indent
    if not examples:
        fail(where, "no examples: section, or it is not last")
    if not re.search(r"^Exit status: ", text, re.M):
        fail(where, "no 'Exit status:' paragraph")
    used = {}
    for m in USAGE_OPT.finditer(" ".join(synopsis)):
        flag, meta = m.group(1), m.group(2)
        if meta and flag in used and used[flag] not in (None, meta):
            fail(where, "%s has two metavariables on the synopsis" % flag)
        used[flag] = meta or used.get(flag)
    for flag, meta in list(opts.items()) + list(used.items()):
        if meta and meta not in VOCABULARY:
            fail(where, "%s %s: the metavariable is not in the vocabulary (%s)" % (flag, meta, " ".join(VOCABULARY)))
    for flag, meta in opts.items():
        if flag in ("--help", "-h"):
            continue
        if flag not in used:
            fail(where, "%s is on an option line but not on the synopsis" % flag)
        elif used[flag] != meta:
            fail(where, "%s takes %s on its option line but %s on the synopsis" % (flag, meta, used[flag]))
    for flag in used:
        if flag not in opts and flag not in ("--help", "-h"):
            fail(where, "%s is on the synopsis but has no option line" % flag)
    for ex in examples:
        for flag in OPT.findall(" ".join(w for w in ex.split() if w.startswith("-"))):
            if flag not in opts and flag not in ("--help", "-h") and c != "overview":
                fail(where, "the example %r uses %s, not an option of %s" % (ex, flag, c))
        if c != "overview" and not ex.startswith("q7pred %s" % c):
            fail(where, "the example %r is not of q7pred %s" % (ex, c))
    return opts, used


OPTIONS = {}
check_text("overview", overview)
for c, text in TEXTS.items():
    OPTIONS[c], _ = check_text(c, text)

# one metavariable per option across the commands
seen = {}
for c, opts in OPTIONS.items():
    for flag, meta in opts.items():
        if flag in EXCEPTIONS and c in EXCEPTIONS[flag]:
            if meta is not None:
                fail("q7pred help " + c, "%s is listed as taking no value here, yet takes %s" % (flag, meta))
            continue
        seen.setdefault(flag, {}).setdefault(meta, []).append(c)
for flag, metas in sorted(seen.items()):
    if len(metas) > 1:
        fail("the commands", "%s is spelled %s" % (flag, "; ".join(
            "%s %s in %s" % (flag, m or "(no value)", ", ".join(cs)) for m, cs in metas.items())))

# ---- the parsers agree with the texts
def literals(paths):
    names = set()
    for p in paths:
        names.update(re.findall(r'"(--[a-z][a-z0-9-]*)"', open(p).read()))
    return names


shared = literals([os.path.join(SRC, "src", "tools", "cli", "options", "shared.def")])
every = set().union(*[set(o) for o in OPTIONS.values()]) | shared


def refused_as_unknown(c, flag):
    rc, out, err = run(c, flag, "1", "--zz-no-such-option", "--zz-no-such-option")
    return rc == 2 and ("unknown option '%s'" % flag) in err


for c in COMMANDS:
    own = literals(glob.glob(os.path.join(SRC, "src", "tools", "cli", "cmd_%s*.c" % c)) +
                   glob.glob(os.path.join(SRC, "src", "tools", "cli", "options", "%s.def" % c)))
    for flag in sorted(every | own):
        if flag in ("--help", "--zz-no-such-option"):
            continue
        documented = flag in OPTIONS[c]
        unknown = refused_as_unknown(c, flag)
        if documented and unknown:
            fail("q7pred " + c, "its help names %s but its parser refuses it" % flag)
        if not documented and not unknown:
            fail("q7pred " + c, "takes %s, which its help does not name" % flag)

for f in failures:
    print("FAIL: " + f)
print("%d commands' help checked (%s); %d failures" % (len(TEXTS), " ".join(COMMANDS), len(failures)))
sys.exit(1 if failures else 0)
