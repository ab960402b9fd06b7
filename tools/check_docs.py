#!/usr/bin/env python3
"""Fail if a user-facing document narrates the work instead of describing the project.

    tools/check_docs.py [FILE...]     check these files (default: README.md, BENCHMARKS.md, docs/**/*.md)
    tools/check_docs.py --self-test   check the checker on built-in good and bad snippets

Prints `file:line: what` for every hit and exits with 1 if there is any (2: a file cannot be
read). Flagged, outside fenced code blocks, inline code spans, link targets and URLs:

  - issue references: `#12`, `issue 12`, `issues 4 and 5`, `PR 7`;
  - the words "blind set", "session", "attempt";
  - a heading that holds a date (YYYY-MM-DD), a paragraph or list item that starts with a date,
    and a date after "on", "since", "until", "before", "after", "as of" ("On 2026-05-03 we ...");
  - "yesterday", "today we", "we tried", "this time", "used to be", "tried ... not kept".

A date in a table row (a "date" column of a measurement) is allowed. Standard library only.
"""

import re
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DATE = r"(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])"
DATE_RE = re.compile(r"(?<![\w-])" + DATE + r"(?![\w-])")

# (pattern, message) checked on every line of prose, headings and tables included.
PHRASES = [
    (re.compile(r"(?<![\w&/#])#\d+\b"), "issue reference"),
    (re.compile(r"\b(?:issues?|tickets?|PRs?|pull requests?)\s*#?\d+", re.I), "issue reference"),
    (re.compile(r"\b(?:later|earlier|previous|next|this|that|an\s+open)\s+issues?\b", re.I), "issue reference"),
    (re.compile(r"\bblind[\s-]+sets?\b", re.I), "'blind set'"),
    (re.compile(r"\bsessions?\b", re.I), "'session'"),
    (re.compile(r"\battempt(?:s|ed|ing)?\b", re.I), "'attempt'"),
    (re.compile(r"\byesterday\b", re.I), "'yesterday'"),
    (re.compile(r"\btoday,?\s+we\b", re.I), "'today we'"),
    (re.compile(r"\bwe\s+(?:have\s+)?tried\b", re.I), "'we tried'"),
    (re.compile(r"\bthis\s+time\b", re.I), "'this time'"),
    (re.compile(r"\bused\s+to\s+be\b", re.I), "'used to be'"),
    (re.compile(r"\btried\b[^.;]{0,30}\bnot\s+kept\b", re.I), "'tried ... not kept'"),
    (re.compile(r"\b(?:on|since|until|till|before|after|as\s+of)\s+" + DATE, re.I), "dated narration"),
]

FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING_RE = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
SETEXT_RE = re.compile(r"^ {0,3}(?:=+|-+)\s*$")
TABLE_RE = re.compile(r"^\s*\|")
LEAD_RE = re.compile(r"^\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?[*_]*")


def blank(match):
    """The match with every character but newlines turned into a space (line numbers kept)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def prose_lines(text):
    """The document's lines with code and link targets blanked out: fenced blocks, inline code
    spans (which may run over a line break, not over a blank line), HTML comments, link and
    image targets, autolinks and bare URLs."""
    lines = text.split("\n")
    fence = None
    for i, line in enumerate(lines):
        m = FENCE_RE.match(line)
        if fence is None and m:
            fence = m.group(1)
            lines[i] = ""
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip().strip(fence[0]):
                fence = None
            lines[i] = ""
    text = "\n".join(lines)
    text = re.sub(r"<!--.*?-->", blank, text, flags=re.S)
    text = re.sub(r"(?<!`)(`+)(?!`)((?:(?!\n\s*\n).)+?)(?<!`)\1(?!`)", blank, text, flags=re.S)
    text = re.sub(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)", lambda m: "]" + blank(m)[1:], text)
    text = re.sub(r"^\s*\[[^\]]+\]:\s*\S+.*$", blank, text, flags=re.M)  # reference definitions
    text = re.sub(r"<[a-z]+://[^>\s]*>", blank, text)
    text = re.sub(r"\b[a-z]+://\S+", blank, text)
    return text.split("\n")


def check_text(text):
    """[(line number, what)] for every hit in a document's text."""
    hits = []
    lines = prose_lines(text)
    for i, line in enumerate(lines):
        number = i + 1
        if not line.strip():
            continue
        table = bool(TABLE_RE.match(line))
        following = lines[i + 1] if i + 1 < len(lines) else ""
        heading = bool(HEADING_RE.match(line)) or (
            not table and bool(SETEXT_RE.match(following)) and not SETEXT_RE.match(line))
        seen = set()  # one hit per kind a line
        for pattern, what in PHRASES:
            m = pattern.search(line)
            if m and what not in seen:
                seen.add(what)
                hits.append((number, what + ": " + m.group(0).strip()))
        if heading and DATE_RE.search(line):
            hits.append((number, "dated heading: " + line.strip()[:60]))
        elif not table and not heading and re.match(DATE, LEAD_RE.sub("", line, count=1)):
            # A paragraph or a list item that opens with a date is a log entry; a wrapped line
            # that happens to begin with one ("Date, commit:\n2026-11-26, ...") is not.
            previous = lines[i - 1] if i > 0 else ""
            opens = not previous.strip() or HEADING_RE.match(previous) or TABLE_RE.match(previous) or \
                re.match(r"^\s*(?:>\s*)*(?:[-*+]|\d+[.)])\s+", line)
            if opens:
                hits.append((number, "paragraph starts with a date: " + line.strip()[:60]))
    return hits


def default_paths():
    paths = [ROOT / "README.md", ROOT / "BENCHMARKS.md"]
    paths += sorted((ROOT / "docs").rglob("*.md"))
    return [p for p in paths if p.exists()]


def shown(path):
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def check_files(paths):
    status = 0
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            status = 2
            continue
        for number, what in check_text(text):
            print(f"{shown(Path(path))}:{number}: {what}")
            status = max(status, 1)
    return status


# (snippet, number of hits expected). Good ones describe the project; bad ones narrate.
SELF_TEST = [
    # good
    ("# Benchmarks\n\nAll figures: Life from a 50% fill.\n", 0),
    ("## The pipeline\n\n### 1. Sources\n", 0),
    ("| GPU | date | commit | cell updates/s |\n|---|---|---|---|\n| H100 | 2026-11-26 | 6f1d6cf | 7.95e10 |\n", 0),
    ("Command: `bench --suite gpu`. Date, commit: 2026-11-26, 6f1d6cf.\n", 0),
    ("```sh\n# issue 12, session, attempt: a shell comment\nmake  # 2026-11-26\n```\n", 0),
    ("~~~\n#12 #N acorn\n~~~\n", 0),
    ("An RLE file starts with `#N name` and `#C` comments; `#CXRLE Pos` places it.\n", 0),
    ("A span `over a\nline break #34` is code.\n", 0),
    ("See [the tutorial](docs/TUTORIAL_MODEL.md#1-the-file) and <https://example.org/issues/12>.\n", 0),
    ("The C++ `mpi::Session` object starts MPI.\n", 0),
    ("Colors are numbered 0 to 255; 12 of 14 rows pass.\n", 0),
    ("Each step is the paper's growth; a list is no longer than its slice.\n", 0),
    ("<!-- session notes: issue 3 -->\nText.\n", 0),
    ("Measured by the standard suite. Date, commit:\n2026-11-26, 6f1d6cf.\n", 0),
    ("The instruction issue rate bounds the kernel.\n", 0),
    # bad
    ("Fixed in #34.\n", 1),
    ("This closes issue 12.\n", 1),
    ("Against the targets of issues 4 and 5:\n", 1),
    ("See PR #7 for details.\n", 1),
    ("## 4 H100s, 2026-11-26 - the push without a fence\n", 1),
    ("Results of 2026-11-22\n===\n", 1),
    ("On 2026-05-03 we measured it again.\n", 1),
    ("2026-05-03: the kernel got faster.\n", 1),
    ("- 2026-05-03 rebuilt the layout\n", 1),
    ("Intro.\n\n**2026-05-03**: the kernel got faster.\n", 1),
    ("Not built yet (later issues).\n", 1),
    ("Measured in the thirteenth session.\n", 1),
    ("The blind set 14 came within 10%.\n", 1),
    ("A first attempt lost 13%.\n", 1),
    ("Yesterday the grid ran at 80%.\n", 1),
    ("Today we measured the mesh.\n", 1),
    ("We tried 16 loads in flight.\n", 1),
    ("This time the bench passed.\n", 1),
    ("The halo used to be copied through the host.\n", 1),
    ("Tried and not kept: a fused push.\n", 1),
    ("| case | note |\n|---|---|\n| grid | fixed in #12 |\n", 1),
    ("Prose before a fence.\n```\ncode\n```\nAfter it, issue 9.\n", 1),
]


def self_test():
    failures = 0
    for snippet, expected in SELF_TEST:
        hits = check_text(snippet)
        if (len(hits) > 0) != (expected > 0) or (expected and len(hits) != expected):
            failures += 1
            print(f"self-test: expected {expected} hit(s), got {len(hits)} {hits} in:\n{snippet}", file=sys.stderr)
    # Line numbers survive blanked code.
    where = check_text("```\n#1\n#2\n```\n\nText `a\nb` here.\nissue 5\n")
    if [n for n, _ in where] != [8]:
        failures += 1
        print(f"self-test: expected a hit on line 8, got {where}", file=sys.stderr)
    print(f"check_docs self-test: {len(SELF_TEST) + 1 - failures} of {len(SELF_TEST) + 1} cases right")
    return 1 if failures else 0


def main(argv):
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    if argv[1:] == ["--self-test"]:
        return self_test()
    if any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0
    paths = [Path(a) for a in argv[1:]] or default_paths()
    return check_files(paths)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
