"""Before the run: two slips that stop code from parsing at all, mended only when the code does not
parse and the mended code does (mends of ``BEFORE_RUN``).

- An f-string that reuses its own quote inside a replacement field, ``f'{df.loc[i, 'DATE']}'``:
  Python 3.12 accepts it, the 3.11 the sandbox runs does not ("f-string: unmatched '['"), and the
  model, shown the error, rewrites the line the same way.
- A doubled dot before a name, ``s['x']..idxmax()``.
- A value with an apostrophe quoted in the same quote, ``df['educ'] == 'bachelor's degree'``: the
  model writes a category value as the data spells it and the string ends early; it is written in
  the other quote.
- An assignment with one closing parenthesis too many, ``r = (a / b) - 1) * 100``: the opening one
  left out is put where the expression starts, the grouping such a line means.
"""

from __future__ import annotations

import re

from dsagent.workflows.common.mends._edit import parses
from dsagent.workflows.common.mends.facts import MendFacts

_DOUBLE_DOT = re.compile(r"(?<=[\w)\]])\.\.(?=[A-Za-z_])")
_APOSTROPHE_VALUE = re.compile(r"'([^'\"\n]*?[A-Za-z]'[A-Za-z][^'\"\n]*?)'")
"""A single-quoted literal with an apostrophe between two letters inside it (``'O'Brien'``)."""
_ASSIGNED = re.compile(r"^(\s*[^=#(\n]*?[^=!<>]=(?!=)\s*)(\S.*)$")
"""An assignment's target with its ``=`` (group 1) and the expression (group 2)."""
_STRING_START = re.compile(r"(?<![\w'\"])[fF][rR]?(['\"])|(['\"])")
"""An f-string's opening quote (group 1) or a plain string's (group 2)."""


def _inner_quotes_swapped(line: str) -> str:
    """``line`` with the quotes inside each single-line f-string's replacement fields written as the
    other quote (``f'{d['a']}'`` → ``f'{d["a"]}'``); a line without such a field is returned as is."""
    out, i = [], 0
    while i < len(line):
        match = _STRING_START.search(line, i)
        if match is None:
            out.append(line[i:])
            break
        out.append(line[i:match.start()])
        if match.group(2):  # a plain string: copied to its end
            end = line.find(match.group(2), match.end())
            end = len(line) - 1 if end < 0 else end
            out.append(line[match.start():end + 1])
            i = end + 1
            continue
        quote, other = match.group(1), "'" if match.group(1) == '"' else '"'
        out.append(match.group(0))
        j, depth = match.end(), 0
        while j < len(line):
            ch = line[j]
            if ch == "{" and depth == 0 and line[j + 1:j + 2] == "{":
                out.append("{{")
                j += 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}" and depth:
                depth -= 1
            elif ch == quote:
                if depth == 0:
                    out.append(ch)
                    j += 1
                    break
                ch = other
            out.append(ch)
            j += 1
        i = j
    return "".join(out)


def _line_mended(line: str) -> str:
    """``line`` with an f-string's reused quote, a doubled dot and an apostrophe's value mended."""
    if re.search(r"[fF][rR]?['\"]|\.\.", line):
        line = _DOUBLE_DOT.sub(".", _inner_quotes_swapped(line))
    if line.count("'") % 2:
        line = _APOSTROPHE_VALUE.sub(lambda m: '"' + m.group(1) + '"', line)
    return line


def _opening_restored(code: str) -> str:
    """``code`` with the opening parenthesis put back where the assignment Python finds an
    unmatched ``)`` in starts its expression (a few such lines at most); ``code`` if none is."""
    lines = code.split("\n")
    for _ in range(3):
        try:
            compile("\n".join(lines), "<code>", "exec")
            break
        except SyntaxError as exc:
            at = (exc.lineno or 0) - 1
            if not str(exc.msg).startswith("unmatched ')'") or not 0 <= at < len(lines):
                break
            assigned = _ASSIGNED.match(lines[at])
            if not assigned or lines[at].count(")") - lines[at].count("(") != 1:
                break
            lines[at] = assigned.group(1) + "(" + assigned.group(2)
    return "\n".join(lines)


def mend_syntax_slips(code: str, facts: MendFacts | None = None) -> str:
    """``code`` with the slips above mended when the code does not parse and the mended code does;
    else unchanged."""
    if parses(code):
        return code
    result = "\n".join(_line_mended(line) for line in code.split("\n"))
    if not parses(result):
        result = _opening_restored(result)
    return result if parses(result) else code
