"""Before the run: two slips that stop code from parsing at all, mended only when the code does not
parse and the mended code does (mends of ``BEFORE_RUN``).

- An f-string that reuses its own quote inside a replacement field, ``f'{df.loc[i, 'DATE']}'``:
  Python 3.12 accepts it, the 3.11 the sandbox runs does not ("f-string: unmatched '['"), and the
  model, shown the error, rewrites the line the same way.
- A doubled dot before a name, ``s['x']..idxmax()``.
"""

from __future__ import annotations

import re

from dsagent.workflows.common.mends._edit import parses
from dsagent.workflows.common.mends.facts import MendFacts

_DOUBLE_DOT = re.compile(r"(?<=[\w)\]])\.\.(?=[A-Za-z_])")
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


def mend_syntax_slips(code: str, facts: MendFacts | None = None) -> str:
    """``code`` with an f-string's reused quote and a doubled dot mended, line by line, when the
    code does not parse and the mended code does; else unchanged."""
    if parses(code):
        return code
    lines = code.split("\n")
    mended = [_DOUBLE_DOT.sub(".", _inner_quotes_swapped(line)) if re.search(r"[fF][rR]?['\"]|\.\.", line) else line
              for line in lines]
    result = "\n".join(mended)
    return result if parses(result) else code
