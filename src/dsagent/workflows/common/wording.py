"""Words code reads in a question or an explanation: the two ends of a ranking, a "which …"
question, an aggregate asked for, a comparison, a year, the keys a request names, and sentences.

One definition each, for every check that reads them (``fit``, ``mends``, ``rankings``,
``grounding``, ``prompting``'s recipes): a new word list goes here, and a module that needs one
imports it from here instead of writing its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SHARE_OF = re.compile(r"\b(percentage|percent|share|proportion|fraction)\s+of\b", re.I)
"""A share of something: "what percentage of the rows …", "what share of all votes …"."""
CHANGE = re.compile(r"\b(chang\w*|grow\w*|growth|increas\w*|decreas\w*|differ\w*|return|ratio|compared?|more|less|higher|lower)\b", re.I)
"""A change or a comparison, whose percentage may be below 0 or above 100."""
_HOT = (r"hottest|warmest|fastest|oldest|richest|busiest|strongest|longest|tallest|heaviest|deepest|wettest|costliest|"
        r"loudest|peak")
_COLD = r"coolest|coldest|slowest|youngest|poorest|quietest|weakest|shortest|lightest|driest|cheapest|shallowest"
HIGH = re.compile(r"\b(highest|largest|biggest|greatest|most|maximum|best|top)\b", re.I)
LOW = re.compile(r"\b(lowest|smallest|least|fewest|minimum|worst|bottom)\b", re.I)
_END_WORDS = rf"highest|lowest|largest|smallest|most|least|maximum|minimum|best|worst|{_HOT}|{_COLD}"
_ENDS = rf"({_END_WORDS})"
"""The ends of a ranking a "which" question asks for; the superlatives of one measure (coolest,
oldest) only here: in an explanation they rank another measure than the one asked about."""
WHICH_OPENS = re.compile(r"^\W*(which|who|whose)\b", re.I)
"""A question that opens with which / who / whose ("whose methylation rises the most": a person)."""
WHICH = re.compile(rf"^\W*(which|who|whose)\b|\b(which|who|whose)\b[^.?!]*\b{_ENDS}\b", re.I)
"""A question that asks which label is at one end ("which country has the highest …", "who …")."""
WHICH_END = re.compile(rf"\b(which|who)\b[^.?!]*\b(top|{_END_WORDS})\b", re.I)
"""Which / who followed by an end of a ranking in the same sentence ("… which region sold the most")."""
AGGREGATES = {"mean": "mean", "average": "mean", "median": "median", "total": "sum", "sum": "sum",
              "standard deviation": "std", "variance": "var"}
"""An aggregate a question asks for, by its word, and the pandas method that computes it."""
AGGREGATE = re.compile(r"\b(mean|average|median|total|sum|standard deviation|variance)\b", re.I)
"""A word of :data:`AGGREGATES`."""
COMPARES = re.compile(r"\b(highest|lowest|most|least|largest|smallest|biggest|greatest|best|worst|top|bottom|rank\w*|"
                      r"more|less|fewer|higher|lower|larger|smaller|compar\w*|maximum|minimum|max|min)\b", re.I)
"""A word that ranks or compares (an explanation's sentence that uses one claims a ranking)."""
YEAR = re.compile(r"(?<![\d.])(1[89]\d\d|20\d\d)(?!\d|\.\d)")
_SPAN = re.compile(r"(?<![\d.])(1\d{3}|20\d\d)(?:\s*Q\d)?\s*(?:-|–|—|to|through|until|till|and)\s*(?:Q\d\s*)?(1\d{3}|20\d\d)(?!\d|\.\d)", re.I)
_BOUND = re.compile(r"\b(?:since|after|before|from|until|till|through|between|up to|prior to|as of)\s+(?:(?:the\s+)?(?:start|end|beginning)\s+of\s+)?"
                    r"(?:Q\d\s+)?(1[89]\d\d|20\d\d)(?!\d|\.\d)", re.I)


def ranged_years(text: str) -> set[str]:
    """The years ``text`` names as a bound of a span ("1935-1954", "1959Q1 to 2009Q3", "since
    1977", "between 1952 and 1977"), not as the one period to keep ("in 1977"): a span that may
    be all of the data asks for no filter on its ends."""
    found = {year for match in _SPAN.finditer(text or "") for year in match.groups()}
    return found | {match.group(1) for match in _BOUND.finditer(text or "")}


def span_only_years(text: str) -> set[str]:
    """The years ``text`` names only as an end of a span ("over all 203 quarters (1959Q1 to
    2009Q3)", "1935-1954", "since 1977"), never as one period on its own ("in 1977"). Not a
    span: "2019 and 2020" without "between" (two years named), nor one whose ends are one year
    ("Q1 2019 to Q4 2019", "2019-2019")."""
    text = text or ""
    ends, points, cut = set(), set(), []
    for match in _SPAN.finditer(text):
        first, last = match.groups()
        joined = re.search(r"\band\b", match.group(0), re.I) and not re.search(r"\bbetween\s+(?:Q\d\s+)?$", text[:match.start()], re.I)
        if first == last or joined:
            points |= {first, last}
        else:
            ends |= {first, last}
            cut.append(match.span())
    for match in _BOUND.finditer(text):
        ends.add(match.group(1))
        cut.append(match.span())
    rest = "".join(" " if any(a <= i < b for a, b in cut) else ch for i, ch in enumerate(text))
    return ends - points - set(YEAR.findall(rest))


def included(text: str, label: str) -> bool:
    """Does ``text`` say that the rows of ``label`` are counted in ("the District of Columbia
    included", "including Alaska", "the last month (October 2008) … is used as it is"), not that
    they are the ones asked about?"""
    name = re.escape(label)
    return bool(re.search(rf"(?<!\w){name}(?!\w)\W{{0,3}}(?:are\s+|is\s+)?(?:included|too|as well)\b|"
                          rf"\b(?:including|include|includes)\s+(?:the\s+)?{name}(?!\w)|"
                          rf"(?<!\w){name}(?!\w)[^.;:]{{0,80}}?\b(?:is|are)\s+used\s+as\s+(?:it|they)\s+(?:is|are)\b",
                          text or "", re.I))


_PERIOD_LIKE = re.compile(r"(?:1[89]|20)\d\d(?:\s*[-/]?\s*(?:[qQmM]\d{1,2}|\d{1,2}))?\b")
"""A label that is a period (a year, a quarter '1947Q3', a month '1972m1', '1995-03'): only such a
label is a sequence's start ("the first pair is 1947Q3"); a place is not ("flights starting in Denver")."""


def bounds(text: str, label: str) -> bool:
    """Does ``text`` name ``label`` as an end of a span ("from 1960q1 to 1982q4", "every quarter
    after 1960q1", "the first pair is 1947q3", "starting at 1960q1"), not as the one value to keep?
    The labels' own ``ranged_years``."""
    name = re.escape(label)
    spans = [rf"\b(?:from|since|after|before|until|till|through|between)\s+(?:the\s+)?{name}(?!\w)",
             rf"(?<!\w){name}\s*(?:-|–|—|\bto\b|\bthrough\b|\buntil\b|\btill\b)\s*\w",
             rf"\w\s*(?:-|–|—|\bto\b|\bthrough\b|\buntil\b|\btill\b)\s*{name}(?!\w)"]
    if _PERIOD_LIKE.match(label):  # a period where a sequence starts or ends ("the first pair is 1947q3")
        spans += [rf"\b(?:first|last|earliest|latest)\b[^.;:?!]{{0,30}}?\b(?:is|was|are|were)\s+(?:the\s+)?{name}(?!\w)",
                  rf"\b(?:start|starts|starting|begins?|beginning|ends?|ending)\s+(?:at|with|in|on)\s+(?:the\s+)?{name}(?!\w)"]
    return bool(re.search("|".join(spans), text or "", re.I))


_QUOTED = r"(?:\"[^\"\n]*\"|'[^'\n]*')"
_EXAMPLE = re.compile(r"\b(?:like|e\.g\.,?|such as|for example,?|for instance,?)\s+"
                      rf"(?:{_QUOTED}(?:(?:\s*,\s*|,?\s+(?:and|or)\s+){_QUOTED})*|\S+)"
                      r"(?:,?\s+(?:which|that) (?:is|means|reads as|stands for)\s+[^,;)\n]*)?", re.I)
RELATIVE_PERIOD = re.compile(r"\b(first|last|latest|earliest|most recent|recent|final|initial|current|previous|prior|"
                             r"next|start|end|beginning|this year|today|past|century|decades?)\b", re.I)
"""A period named by its place, not its number ("the last year", "the first quarter in the data")."""


_BRACKETED_EXAMPLE = re.compile(r"\((?:for example|for instance|e\.g\.|such as)[^()]*\)|\([^()]*\b(?:and so on|etc\.?)\s*\)", re.I)
"""Examples in brackets, whole: "(for example Europe for Europe/Andorra and America for …)",
"(1947Q2 with 1947Q1, and so on)"."""


def without_examples(text: str) -> str:
    """``text`` with each value written only as an example of a format cut out ("written like
    1961Q3", "e.g. Jan-1-1995", an example in brackets "(for example …)", "(… and so on)"), and
    what the text says it means ("like 19-Sep-03, which is 19 September 2003"): such a value names
    no row to keep."""
    return _EXAMPLE.sub(" ", _BRACKETED_EXAMPLE.sub(" ", text or ""))


def named_years(text: str) -> set[int]:
    """The years ``text`` names, and every year of a decade it names ("the 1990s" names 1990 to
    2000, the end of its span; "the 80s" the 1980s); not a year written only as an example of a
    format ("written like 1961Q3")."""
    plain = without_examples(text)
    years = {int(year) for year in YEAR.findall(plain)}
    starts = {int(year) for year in re.findall(r"(?<![\d.])(1[89]\d0|20\d0)'?s\b", plain)}
    starts |= {1900 + int(d) for d in re.findall(r"(?<![\d.])'?([2-9]0)'?s\b", plain)}
    return years | {year for start in starts for year in range(start, start + 11)}


_OUT = r"(?:left out|excluded|omitted|set aside)"
_LEAVING = r"(?:leaving out|leave out|excluding|exclude|except(?: for)?|other than|not counting|apart from|omitting|dropping|ignoring)"
_POINTING = r"(?:leave|leaving|drop|dropping|exclude|excluding|omit|omitting|ignore|ignoring|remove|removing)"
"""A verb that leaves out what a pronoun points back to ("X and Y are totals; leave them out")."""


def excluded(text: str, value: str) -> bool:
    """Does ``text`` say that the rows of ``value`` are left out ("2009 is incomplete and left
    out", "2018 has only six months and is left out", "excluding Alaska", "other than the District
    of Columbia", "leave out 'Other sectors' and the total row 'All industries'", "X and Y are totals;
    leave them out")? Not a verb about the data's own events ("students who dropped out", "items
    omitted from the report")."""
    name = re.escape(value)
    after = rf"(?<![\w.]){name}(?!\w|\.\d)\W{{0,3}}(?:(?:is|are|was|were)\s+(?:\w+\s+and\s+(?:(?:is|are|was|were)\s+)?)?)?(?:to be\s+)?{_OUT}\b(?!\s+(?:out|from|of|by)\b)"
    before = rf"\b{_LEAVING}\s+(?:the\s+)?(?:(?:year|rows?|row of|rows of|rows for)\s+)?['\"]?{name}(?!\w|\.\d)"
    clause = (rf"(?<![\w.]){name}(?!\w|\.\d)[^.;:()]{{1,40}}?\band\s+(?:is|are|was|were|must be|should be|has to be)\s+(?:to be\s+)?"
              rf"(?:{_OUT}|not counted|not included)\b(?!\s+(?:out|from|of|by)\b)")
    listed = (rf"\b{_LEAVING}\s+[^.;:()]{{1,80}}?(?:,|\band\b|\bor\b)\s+(?:the\s+)?(?:total\s+)?(?:rows?\s+)?"
              rf"(?:for\s+|of\s+)?['\"]?{name}(?!\w|\.\d)")
    pointed = (rf"(?<![\w.]){name}(?!\w|\.\d)[^.?!]{{0,120}}?[;,]\s*(?:and\s+|so\s+)?"
               rf"(?:{_POINTING}\s+(?:them|these|those|it|both)(?=\s*(?:out\b|[.;,)]|$|\band\b|\bfrom\b))"
               rf"|(?:they|these|those|it|both)\s+(?:is|are|were|was)\s+(?:to be\s+)?{_OUT}\b)")
    return bool(re.search(f"{after}|{before}|{clause}|{listed}|{pointed}", text or "", re.I))


_NOT_AVAILABLE = r"(?:not\s+available|unavailable|missing|no\s+data|not\s+recorded|not\s+reported|unknown)"


def written_missing(text: str, value: str) -> str | None:
    """The placeholder a statement of ``text`` (not its question) says the values of ``value`` are
    written as, for "not available": "0" for "the four quarters of 1947 are written 0 (not
    available)", ".." for "2020 is recorded as '..', as no data was collected". None when it says
    none, or not that the mark means missing ("sales were recorded as 0" may be real zeros).
    Those rows hold no figures: the question leaves them out."""
    name = re.escape(value)
    written = (rf"(?<![\w.]){name}(?!\w|\.\d)[^.;?!,]{{0,50}}?\b(?:is|are|was|were)\s+(?:written|recorded|entered)\s+(?:as\s+)?"
               rf"['\"]?(0(?![.\d])|zero|-|\.\.|n/?a|blank|empty)['\"]?(?=[\s.,;:()]|$)")
    for sentence in sentence_spans(text or ""):
        said = sentence.group(0)
        match = None if said.rstrip().endswith("?") else re.search(written, said, re.I)
        if match and re.search(_NOT_AVAILABLE, said[match.end():match.end() + 60], re.I):
            return "0" if match.group(1).lower() == "zero" else match.group(1)
    return None


def glossed(text: str, label: str, code: str = "") -> bool:
    """Is ``label`` written in brackets as the meaning of a short code ("S (Southampton)") or with its
    code in brackets ("Southampton (S)"), or as a code said to stand for a meaning ("EC for the
    European Community", "RSA for …"), in a list of two or more such glosses? It says how a column
    writes its values, not which rows to keep, unless the text names ``label`` outside its gloss
    too ("What was the mean gdp of USA?") and the ``code`` uses neither it nor its other side
    ("Q" for Queenstown). One code in brackets alone may be a unit ("Germany (EUR)"): not a gloss;
    a code said to stand for something has a letter and is no quarter or month ("10 for Canada",
    "Q1 for Germany" are no glosses)."""
    text = text or ""
    name = rf"(?i:{re.escape(label)})"
    short = r"['\"]?([A-Z0-9]{1,3})['\"]?"
    lettered = r"['\"]?((?=[A-Z0-9]{0,2}[A-Z])(?![QMHW]\d\b)[A-Z0-9]{1,3})['\"]?"
    means = r"\s+(?:for|=|means|stands\s+for|denotes)\s+(?:the\s+)?"
    glosses = len(re.findall(rf"(?<![\w'\"]){short}\s*\(\s*['\"]?[A-Za-z][^()]{{0,40}}\)|(?<=\w)\s*\(\s*{short}\s*\)"
                             rf"|(?<![\w'\"]){lettered}{means}['\"]?[A-Z]", text))
    forms = [rf"(?<![\w'\"]){short}\s*\(\s*['\"]?{name}['\"]?\s*\)", rf"(?<!\w){name}\s*\(\s*(?!\d+\b){short}\s*\)",
             rf"(?<![\w'\"]){lettered}{means}['\"]?{name}\b"]
    if re.fullmatch(r"[A-Z0-9]{1,3}", label):
        forms.append(rf"(?<![\w'\"])['\"]?{name}['\"]?{means}['\"]?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)")
    found = [m for form in forms for m in re.finditer(form, text)]
    if glosses < 2 or not found:
        return False
    rest = text
    for m in found:
        rest = rest.replace(m.group(0), " ")
    if not re.search(rf"(?<!\w){name}(?!\w)", rest):
        return True  # named only in its gloss: how the column writes it
    return any(re.search(rf"['\"]{re.escape(m.group(1))}['\"]", code) for m in found)


_SENTENCE = re.compile(r".*?(?:[.!?](?=\s|$)|\n|$)\s*", re.S)


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to the first ``.``, ``?`` or ``!`` followed by a space): the
    question itself, before its constraints."""
    return re.split(r"(?<=[?.!])\s", (text or "").strip())[0]


def sentence_spans(text: str) -> Iterable[re.Match[str]]:
    """Sentences with their trailing whitespace: a period followed by space or a new line ends one."""
    return _SENTENCE.finditer(text)


RANK_CORRELATION = re.compile(r"\b(?P<spearman>spearman)\b|\b(?P<kendall>kendall)(?:'s)?\s+(?:tau|rank|correlations?|coefficients?)\b"
                              r"|\brank[- ]correlation\b", re.I)
"""A rank correlation named: Spearman's, Kendall's (as a statistic: "Kendall's tau", not a place called
Kendall), or a rank correlation alone (Spearman's)."""
_TWO = r"(pairs?|two\s+(?:\w+\s+){0,2}(columns?|variables?|measures?|series|fields?|indicators?))"
_TOGETHER = r"(correlat|moves? together)"
CORRELATED_PAIR = re.compile(rf"\b{_TWO}\b[^?!]{{0,200}}?\b{_TOGETHER}|\bcorrelat\w*[^?!]{{0,200}}?\b{_TWO}\b"
                             rf"|\b{_TOGETHER}\w*\s+(with|to)\s+(each other|one another)\b", re.I)
"""A question about a pair of columns and their correlation ("which two variables are most correlated",
"which columns are most correlated with each other")."""


_NAMED_KEYS = re.compile(r"\bdict with (?:the )?keys:?\s+([A-Za-z_]\w*(?:\s*(?:,|\band\b)\s*[A-Za-z_]\w*)*)", re.I)


_AFTER_KEYS = {"then", "or", "which", "where", "so", "but", "each", "with", "rounded"}


def requested_keys(question: str) -> list[str]:
    """The keys a request names for its answer in plain words ("… give the answer as a dict with the
    keys mean_age, max_age"), in order, once each; [] when it names none."""
    found = _NAMED_KEYS.search(question or "")
    if not found:
        return []
    keys = []
    for word in re.findall(r"[A-Za-z_]\w*", found.group(1)):
        if word.lower() == "and":
            continue
        if word.lower() in _AFTER_KEYS:  # "…, then plot it": the list ended
            break
        keys.append(word)
    return list(dict.fromkeys(keys))


PERIOD_ASKED = re.compile(r"\b(?:which|what)\s+(?:(?:calendar|fiscal|financial|single)\s+)?(year|month)\b(?!-)", re.I)
"""A question that asks which year or which month (its number can be checked for range)."""
MOMENT_ASKED = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(?:year|month|day|date|week|quarter|hour|time|period)s?\b(?!\s+of\b)",
                          re.I)
"""A question that asks which moment ("in which month …", "what day …"), not a place in a cycle
("which day of the week")."""
CYCLE = re.compile(r"\b(?P<unit>(?:hour|time)\s+of\s+(?:the\s+)?day|day\s+of\s+(?:the\s+)?week|weekday|"
                   r"day\s+of\s+(?:the\s+)?month|month\s+of\s+(?:the\s+)?year|calendar\s+month|quarter\s+of\s+(?:the\s+)?year|"
                   r"calendar\s+quarter)s?\b", re.I)
"""A place in a cycle that every day, week or year repeats ("which hour of the day", "which
weekday", "which calendar month"), not a moment in time ("which day", "which month")."""


def listed_with(text: str, label: str, others: Iterable[str]) -> bool:
    """Is ``label`` joined to one of ``others`` by a comma, "or" or "/" in ``text`` ("trt is
    'placebo' or 'progabide'", "race is 'white', 'black' or 'other'", "gas/diesel"), a note in
    brackets after it allowed ("'type1|2' (elective) or 'type3'")? Such a list describes a column's
    values (not "and": "placebo and progabide patients" names both), as is any label after "one of"
    in its sentence ("one of 'a', 'b' and 'c'")."""
    quoted = r"['\"]?"
    if re.search(rf"\bone of\b[^.;?]*?(?<!\w){quoted}{re.escape(label)}{quoted}(?!\w)", text, re.I):
        return True  # "msmoke is one of '0 daily', '1-5 daily' and '11+ daily'"
    for other in others:
        a, b = re.escape(label), re.escape(other)
        joined = rf"(?<!\w){quoted}{{0}}{quoted}\s*(?:\([^()]*\)\s*)?(?:,\s*(?:or\s+)?|\bor\s+|/\s*){quoted}{{1}}{quoted}(?!\w)"
        if re.search(joined.format(a, b), text, re.I) or re.search(joined.format(b, a), text, re.I):
            return True
    return False


def otherwise(text: str, label: str) -> bool:
    """Is ``label`` said to be the value of every other row ("admitype is 'type3' for an emergency
    and 'type1|2' otherwise", "… and 'other' for the rest")? It names the complement of a filter
    on another value, not rows to keep."""
    return bool(re.search(rf"(?<!\w)['\"]?{re.escape(label)}['\"]?\s+(?:otherwise|for (?:all )?(?:the )?(?:others?|rest))\b",
                          text, re.I))


NUMBER_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve"}


def counts_with(text: str, word: str, nouns: Iterable[str]) -> bool:
    """Is the number word ``word`` used in ``text`` only to count something other than ``nouns``
    ("the two middle values"), never quoted or before one of ``nouns`` ("two doors")? Then a data
    label spelled the same ('two') is not named by it."""
    if word.lower() not in NUMBER_WORDS or re.search(rf"['\"]{re.escape(word)}['\"]", text, re.I):
        return False
    after = [m.group(1).lower() for m in re.finditer(rf"(?<!\w){re.escape(word)}\s+(\w+)", text, re.I)]
    wanted = {n.lower() for n in nouns} | {n.lower().rstrip("s") for n in nouns}
    return bool(after) and not any(w in wanted or w.rstrip("s") in wanted for w in after)
