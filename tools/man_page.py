#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""q7pred(1) from q7pred's own help texts, so the page never says other
than `q7pred help COMMAND` does:

    man_page.py Q7PRED > docs/q7pred.1        (make man)

Q7PRED is the built CLI. The overview (`q7pred help`) gives NAME,
SYNOPSIS, DESCRIPTION, the command table, OPTIONS, EXIT STATUS and
EXAMPLES; then each command of its table gets a subsection with its help
text. The texts follow one layout (docs/decisions.md, "Help texts";
tests/test_help.py holds them to it), read here as:
  the synopsis       the first lines, up to a blank one
  a paragraph        lines at column 0 (a line ending in ':' followed by
                     indented lines is a heading of what follows)
  an entry           a line at column 2: its head, and its description from
                     column 22 on, continued by the lines at column 22
  examples:          the last block: one command a line
Nothing here knows a command or an option by name.
"""
import re
import subprocess
import sys

DESC_COL = 22


def help_text(q7, *args):
    p = subprocess.run([q7] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return p.stdout.decode("ascii")


def esc(text):
    """Text for a roff line: backslashes and hyphens escaped."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def line(text):
    """A roff text line: one that starts with . or ' would be a request."""
    return "\\&" + text if text[:1] in (".", "'") else text


def head_roff(head):
    """An entry's head: options and words bold, metavariables italic."""
    out = []
    for part in head.split(", "):
        words = part.split(" ")
        first = "\\fB%s\\fR" % esc(words[0])
        rest = ["\\fI%s\\fR" % esc(w) if re.match(r"^[\[A-Z]", w) else esc(w) for w in words[1:]]
        out.append(" ".join([first] + rest))
    return ", ".join(out)


def parse(text):
    """[('synopsis', [lines]), ('para', text), ('heading', text),
    ('entry', head, desc), ('examples', [lines])]"""
    lines = text.rstrip("\n").split("\n")
    k = 0
    syn = []
    while k < len(lines) and lines[k]:
        syn.append(lines[k])
        k += 1
    out = [("synopsis", syn)]
    para = []

    def flush():
        if para:
            out.append(("para", " ".join(para)))
            para.clear()

    while k < len(lines):
        ln = lines[k]
        indent = len(ln) - len(ln.lstrip(" "))
        if not ln:
            flush()
        elif ln == "examples:":
            flush()
            out.append(("examples", [l[2:] for l in lines[k + 1:] if l]))
            break
        elif indent == 0:
            nxt = lines[k + 1] if k + 1 < len(lines) else ""
            if ln.endswith(":") and nxt.startswith("  ") and not para:
                out.append(("heading", ln))
            else:
                para.append(ln)
        elif indent == 2:
            flush()
            if len(ln) > DESC_COL and ln[DESC_COL - 1] == " " and ln[DESC_COL] != " ":
                head, desc = ln[2:DESC_COL - 1].rstrip(), [ln[DESC_COL:]]
            else:
                head, desc = ln[2:], []
            while k + 1 < len(lines) and lines[k + 1].startswith(" " * DESC_COL):
                k += 1
                desc.append(lines[k].strip())
            out.append(("entry", head, " ".join(desc)))
        else:
            para.append(ln.strip())
        k += 1
    flush()
    return out


def body(parts, out):
    """Everything after the synopsis, as roff."""
    for p in parts:
        if p[0] == "para":
            out += [".PP", line(esc(p[1]))]
        elif p[0] == "heading":
            out += [".PP", line("\\fB%s\\fR" % esc(p[1]))]
        elif p[0] == "entry":
            out += [".TP", line(head_roff(p[1]))]
            if p[2]:
                out.append(line(esc(p[2])))
        elif p[0] == "examples":
            out += [".PP", "Examples:", ".PP", ".RS", ".nf"]
            out += [line(esc(e)) for e in p[1]]
            out += [".fi", ".RE"]


def synopsis(lines, out):
    """The synopsis lines as they are (no fill), the leading `usage: `
    dropped and the further forms moved left to match."""
    out += [".nf"]
    for k, l in enumerate(lines):
        l = l[len("usage: "):]   # the first line's "usage: ", the other lines' indent
        out.append(line(esc(l)))
    out += [".fi"]


def page(q7):
    version = help_text(q7, "--version").split()[-1]
    overview = parse(help_text(q7, "help"))
    out = ['.\\" q7pred(1): made by tools/man_page.py from the help texts of q7pred %s (make man);' % version,
           '.\\" do not edit: edit a command\'s help text and run make man.',
           '.TH Q7PRED 1 "" "q7pred %s" "User Commands"' % version,
           ".nh", ".ad l",
           ".SH NAME",
           "q7pred \\- the open bit\\-exact model of the Vision\\-Q7 predicate, classify and compare datapath, "
           "and its tools",
           ".SH SYNOPSIS"]
    synopsis(overview[0][1], out)
    sections = {"Commands:": "COMMANDS", "Options:": "OPTIONS"}
    commands, section = [], "DESCRIPTION"
    out.append(".SH DESCRIPTION")
    for p in overview[1:]:
        if p[0] == "heading" and p[1] in sections:
            section = sections[p[1]]
            out.append(".SH " + section)
        elif p[0] == "para" and p[1].startswith("Exit status: "):
            section = "EXIT STATUS"
            out += [".SH EXIT STATUS", line(esc(p[1][len("Exit status: "):]))]
        elif p[0] == "examples":
            out += [".SH EXAMPLES", ".nf"] + [line(esc(e)) for e in p[1]] + [".fi"]
        else:
            if p[0] == "entry" and section == "COMMANDS":
                commands.append(p[1])
            body([p], out)
    out.append(".SH COMMAND REFERENCE")
    for c in commands:
        parts = parse(help_text(q7, "help", c))
        out.append('.SS "q7pred %s"' % c)
        synopsis(parts[0][1], out)
        body(parts[1:], out)
    out += [".SH SEE ALSO",
            "The README.md of the source tree, and docs/: architecture.md, report\\-format.md,",
            "program\\-format.md, proofs.md, performance.md, fuzzing.md, decisions.md."]
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: man_page.py Q7PRED > q7pred.1\n")
        return 2
    sys.stdout.write(page(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
