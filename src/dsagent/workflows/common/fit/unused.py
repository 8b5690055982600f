"""A year or a data label the question names as what to keep, that the code never uses ("the
question is about 1996, but the code never uses '1996'"), and a value the question leaves out that
the code keeps. Many a named value only describes the data or glosses another value; each such
use is told apart here, since sending a right code back costs a model call and can make it wrong.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from dsagent.workflows.common.fit.named import written_values
from dsagent.workflows.common.fit.rows import YEAR_IN_NAME, by_position, date_named
from dsagent.workflows.common.naming import groups_rows
from dsagent.workflows.common.wording import (YEAR, bounds, counts_with, excluded, glossed, included, listed_with, otherwise,
                                             ranged_years, without_examples, written_missing)

def unused_label_misfit(question: str, code: str, tree: ast.AST, labels: Iterable[str], columns: Iterable[str]) -> str | None:
    """Why a year or a data label the question names as what to keep is missing from the code
    (:func:`_unfiltered`), or a value it leaves out is kept; else None."""
    missing = _unfiltered(question, code, labels, columns)
    if missing and excluded(question, missing) and (by_position(tree) or _LEFT_OUT_BY_RULE.search(code or "")):
        missing = None  # left out by the rows' positions ("the first two rows … are totals"), or by the rule the code applies
    mark = written_missing(question, missing) if missing else None
    if mark and (mark not in ("0", "-") or _PLACEHOLDERS_DROPPED.search(code or "")):
        missing = None  # "1947's quarters are written 0 (not available)": the code drops the 0s; ".." is read as missing
    if missing and (mark or excluded(question, missing)):
        return (f"ResultDoesNotFitQuestion: the question leaves {missing} out, but the code never drops its rows: "
                f"keep the other rows first (df[df['col'] != {missing if missing.isdigit() else repr(missing)}], with the column "
                "that holds it).")
    if missing:
        return (f"ResultDoesNotFitQuestion: the question is about {missing}, but the code never uses {missing!r}: "
                "filter the rows on it first.")
    return None


_LEFT_OUT_BY_RULE = re.compile(r"(?:==|>=)\s*(?:4|12|52)\b|\.filter\(|\.dropna\(|\.(?:diff|shift|pct_change)\(")
"""Code that leaves rows out by a rule a question gives for leaving one out ("2009 has only three
quarters and is left out": complete groups kept, ``n == 4``; "has no quarter before": a lag's first
row; missing values dropped)."""
_PLACEHOLDERS_DROPPED = re.compile(r"(?:!=|>)\s*0(?:\.0)?(?![.\d])|\.replace\(\s*(?:\{\s*)?(?:0(?:\.0)?|['\"]-['\"])\s*[,:]|"
                                   r"errors\s*=\s*['\"]coerce|na_values")
"""Code that leaves out values written 0 or "-" for missing (``!= 0``, ``> 0``, ``replace(0, np.nan)``,
``to_numeric(errors='coerce')`` for "-")."""


def _bounded_past(year: int, code: str) -> bool:
    """Does the code keep the years after ``year`` or before it by a bound next to it (``>= 1973``,
    ``range(1973, …)``, ``<= 1971``)? Then the code has placed the year the question names: it
    leaves it out ("1972 … must be left out") without writing it."""
    return bool(re.search(rf"(>=\s*{year + 1}|range\(\s*{year + 1}\b|<=\s*{year - 1})(?!\d)", code))


def _names_columns(year: str, columns: list[str]) -> bool:
    """Do two or more column names end in the year's last two digits (s80, lw80, expr80), or, in a
    table with no column of years or dates, does a column name hold the year itself or a span that
    ends in it ("… 1996", "… 1995-96", "… 1996/97")? Then "in 1980" describes those columns, not
    rows to keep."""
    if sum(1 for c in columns if re.search(rf"(?<!\d){year[2:]}$", c)) >= 2:
        return True
    if any(date_named(c) for c in columns):
        return False  # a column of years or dates: the year may be rows of it
    spans = (m for c in columns for m in re.finditer(r"(?<!\d)((?:1[89]|20)\d\d)(?:\s*[-/–]\s*(\d\d(?:\d\d)?))?(?!\d)", c))
    return any(year == m.group(1) or (m.group(2) and year[-len(m.group(2)):] == m.group(2)
                                      and int(m.group(1)) < int(year) <= int(m.group(1)) + 10) for m in spans)


_DESCRIBES = re.compile(r"(?:^|(?<=[.\n:]))\s*(?:(?:Each|Every)\s+row\s+(?:is|holds|gives|stands)|The\s+(?:series|data|table|rows)\s+"
                        r"(?:runs?|covers?|spans?|starts?|goes|go|holds?|lists?))\b[^.;?\n]*", re.I)
"""A sentence that describes the rows ("Each row is one trading day of 2003", "The series runs from
1959 Q01 to 2009 Q03"): the values in it name the data, not rows to keep."""
_ENDS = re.compile(r"\b(?:first|last|earliest|latest|oldest|newest|initial|final|start|end)\b", re.I)
_READS_ENDS = re.compile(r"\.iloc\[\s*-?[01]\s*[\],]|\.(?:head|tail)\(\s*1?\s*\)|\.(?:first|last)\(\s*\)")
"""Code that reads the first or the last row by its position (not a maximum: "the first year …
must be left out" is no gloss of ``idxmax``)."""
_COMPARATIVES = {"greater", "less", "more", "fewer", "higher", "lower", "larger", "smaller", "bigger", "better", "worse",
                 "older", "younger", "longer", "shorter", "earlier", "later"}
_STATEMENT = re.compile(r"\b(?:is|are|was|were)\b", re.I)
_NONE_BEFORE = re.compile(r"\b(?:has|have|with)\s+no\s+(?:\w+\s+){0,2}?(?:before|previous|prior|change|return|growth|rise)\b", re.I)
_LAGGED = re.compile(r"\.(?:diff|shift|pct_change)\(")
_PERIOD = re.compile(r"(?:1[89]|20)\d\d")
_VALUE_LIKE = re.compile(r"['\"‘“][^'\"]+['\"’”]|[\w-]*\d[\w-]*")
"""A value as a question writes one: quoted, or a code with a digit ("22", "A1")."""


def _aside(text: str, value: str, code: str) -> bool:
    """Is ``value`` said aside rather than asked: a period next to "first"/"last" (or earliest,
    latest …) in its clause while the code reads the rows at the ends ("the earliest year (1956)"
    read as ``iloc[0]``); in brackets that gloss a value the code uses ("class 22 (data
    exception)", not a year) or that say something of it ("(all values are positive)", not "(2009 is
    incomplete and left out)"); or as a comparative ("greater than")? A value the question leaves
    out is never aside: the check of left-out values reads it.""" 
    name = re.escape(value)
    for found in re.finditer(rf"(?<![\w]){name}(?![\w])", text, re.I):
        clause = re.split(r"[.;?!]", text[max(0, found.start() - 40): found.start()])[-1] + re.split(
            r"[.;?!]", text[found.end(): found.end() + 40])[0]
        if _PERIOD.match(value) and _ENDS.search(clause) and _READS_ENDS.search(code):
            return True
        if _NONE_BEFORE.search(clause) and _LAGGED.search(code):
            return True  # "1960q1 has no quarter before": the row a lag leaves without a value
        if value.lower() in _COMPARATIVES and re.match(r"\s+than\b", text[found.end():], re.I):
            return True
        bracket = re.search(rf"(\S+)\s*\(([^()]*)(?<![\w]){name}(?![\w])([^()]*)\)", text[max(0, found.start() - 80): found.end() + 80], re.I)
        glossed_value = bracket.group(1).strip(",") if bracket else ""
        if bracket and not _PERIOD.match(value) and ((_VALUE_LIKE.fullmatch(glossed_value)
                                                       and glossed_value.strip("'\"‘’“”").lower() in code)
                                                      or _STATEMENT.search(bracket.group(2))):
            return True  # "class 22 (data exception)", "(all values are positive)"; not "(2009 is … left out)"
        if bracket and re.search(rf"\b(?:each|every|per)\s+{re.escape(bracket.group(1))}\s*\(", text, re.I) and groups_rows(code):
            return True  # "treat each admitype ('type1|2' and 'type3') separately": the groups, all of them
    return False


def _unfiltered(question: str, code: str, labels: Iterable[str], columns: Iterable[str] = ()) -> str | None:
    """A year or a data label the question names as what to keep and the code never mentions.

    Not a year that bounds a span ("1935-1954", "since 1977": the span may be all of the data), nor
    a label the question says is counted in ("the District of Columbia included"): asked to filter
    on those, the model drops rows it should keep. Nor a year the question leaves out that lies
    outside a span whose ends the code filters on ("1959 to 2017 (2018 … is left out)"). A year
    only when some column can hold years (its name says year, date, period …; any, when the
    columns are not known): in a table with none, a year describes a column ("violent crimes in
    1996") and no row can be kept by it. Not a label the question lists with others as a column's
    values ("trt is 'placebo' or 'progabide'") when the code keeps one of them or groups, nor a
    number word that counts something else ("the two middle values" names no label 'two')."""
    lowered = _without_answer_keys(code or "").lower()
    spans = ranged_years(question or "")
    names = [str(c) for c in columns]
    dated = not names or any(date_named(c) or YEAR_IN_NAME.search(c) for c in names)
    ends = sorted(int(y) for y in spans if y in lowered)  # the span's ends the code filters on
    plain = _DESCRIBES.sub(" ", without_examples(question))
    for year in YEAR.findall(plain) if dated else ():  # not a format's example ("like Jan-1-1995")
        if all(re.match(r"[-\s]?[qQmM]\d", plain[m.end():m.end() + 3]) for m in re.finditer(year, plain)):
            continue  # only inside period labels ('1947Q1'): the labels' own check reads them
        if year not in lowered and year not in spans and not included(question, year) and not _names_columns(year, names) and not _bounded_past(int(year), lowered) and not (
                len(ends) >= 2 and not ends[0] <= int(year) <= ends[-1] and excluded(question, year)) and (
                excluded(question, year) or not _aside(plain, year, lowered)):
            return year
    asked = plain.lower()
    named = [label for label in labels if len(label) >= 3 and _names_label(plain, label)]
    whole = (code or "").lower()  # a lower-case word ('negative') in a key may well be how the code says a comparison
    used = [label for label in named if label.lower() in (lowered if label != label.lower() else whole)]
    for label in named:
        listed = ((listed_with(asked, label.lower(), [n.lower() for n in named if n != label]) or otherwise(asked, label.lower()))
                  and (used or groups_rows(code)))
        if (label not in used and not included(question, label) and not listed and not counts_with(asked, label, names)
                and not bounds(asked, label.lower()) and not glossed(without_examples(question), label, code)
                and (excluded(question, label) or not _aside(plain, label, lowered))):
            return label
    return None


def _without_answer_keys(code: str) -> str:
    """``code`` with the keys of the answer (``result = {'california_change': …}``, ``result['x_2010'] =
    …``) written as empty text: a key names the answer, not rows the code keeps. Used for years and
    for labels with a capital or a digit (names, codes); a lower-case word in a key ('negative_entries'
    for ``score < 0``) can name the comparison the code makes."""
    try:
        keys = written_values(ast.parse(code))
    except SyntaxError:
        return code
    for key in sorted(keys, key=len, reverse=True):
        code = re.sub(rf"(['\"]){re.escape(key)}\1", "''", code)
    return code


def _names_label(text: str, label: str) -> bool:
    """Does ``text`` name the data label: as the data writes it, or in any case between quotes
    ("the 'north' region")? Not a common word in another case ("How many" for a value 'Many')."""
    if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text):
        return True
    return bool(re.search(rf"[\"'‘“]{re.escape(label)}[\"'’”]", text, re.I))
