"""Describe datasets to the model in as few prompt tokens as will do.

Two tiers, after the design notes (seed 002, Node 2): up to 30 columns every column gets a
detailed line (Summary B); wider tables get one compact line per column (Summary A) and detailed
lines only for the columns most likely to matter, as many as fit the token budget. The small
local model reads ~50 tokens/s, so every figure here has to earn its place.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dsagent.data.bigfile import BigFile, header_note
from dsagent.data.shape import shape_notes
from dsagent.data.catalog import Dataset
from dsagent.data.rendering import compact_line, detailed_line, numbers_note, short_dtype
from dsagent.data.stats import SAMPLE_ROWS, ColumnStats, add_details, basic_stats, sample_positions
from dsagent.data.tokens import count_tokens

WIDE_COLUMNS = 30
TOKEN_BUDGET = 2000
SUMMARY_A_BUDGET = 1500
"""Prompt tokens for Summary A's compact lines: a table too wide for them lists the columns that
matter most (the question's, keys, incomplete, numeric) and counts the rest, so a profile stays
about ``TOKEN_BUDGET`` at any width (5,000 columns had made a ~30k-token prompt; the local model
reads 8,192). The same columns at every call for one question, so the prompt prefix is stable."""
PROFILES_BUDGET = 3000
"""Prompt tokens for the profiles of all datasets of a session together: each table gets an equal
share (:func:`budget_share`), at most ``TOKEN_BUDGET``, so three tables of 5,000 columns make the
same ~3k tokens of profile as one (three full budgets had made ~6.3k-token prompts)."""
MIN_SHARE = 300
"""The least a table's profile is given however many tables there are (its header and counts)."""
_KEY_NAME = re.compile(r"(^|[_\s])(id|key|code|uuid|no|number)$|id$", re.IGNORECASE)
_MAX_FORCED = 10
_STOPWORDS = {"the", "and", "for", "with", "what", "which", "how", "many", "per", "are", "from", "of", "in", "by"}


@dataclass
class DatasetProfile:
    dataset_id: str
    text: str
    """What goes into the prompt: header, then Summary A (wide tables only), then Summary B."""
    tokens: int
    tier: str
    """"B" (every column detailed) or "A+B" (compact line for all, detailed for a selection)."""
    summary_a: str | None
    summary_b: str
    detailed_columns: list[str]


def profile_dataset(
    ds: Dataset,
    question: str | None = None,
    relevant_columns: Sequence[str] | None = None,
    max_detailed: int = 40,
    token_budget: int = TOKEN_BUDGET,
    summary_a_budget: int | None = None,
) -> DatasetProfile:
    """Profile ``ds`` for a prompt; wide tables keep to ``token_budget`` where the columns allow.
    Summary A gets ``summary_a_budget`` (default: :data:`SUMMARY_A_BUDGET`, scaled down with a
    ``token_budget`` below :data:`TOKEN_BUDGET`)."""
    frame = ds.frame
    rows, cols = frame.shape
    positions = sample_positions(rows)
    sampled = frame if positions is None else frame.iloc[positions]
    names = [str(c) for c in frame.columns]
    stats = {
        name: basic_stats(name, frame.iloc[:, i], sampled.iloc[:, i]) for i, name in enumerate(names)
    }
    header = f"datasets[{ds.id!r}] = {ds.name}: {rows} rows x {cols} cols"
    if ds.big is not None:  # a file DuckDB scans: the figures come from DuckDB and the first rows
        approx = "" if ds.big.rows_exact else "~"
        header = f"datasets[{ds.id!r}] = {ds.name}: {approx}{ds.rows} rows x {cols} cols ({header_note(ds.big)})"
        _use_exact(stats, ds.big)
    elif positions is not None:
        header += f" (top %/samples from a {SAMPLE_ROWS // 1000}k-row sample)"
    header += numbers_note(ds.read_options or {})
    if ds.big is None and ds.table is None:  # the whole table is in the frame
        try:
            header += "".join(f"\n{note}" for note in shape_notes(frame, ds.timeline))
        except Exception:  # noqa: BLE001 - a note is a hint: a table it cannot read is profiled without one
            pass

    position = {name: i for i, name in enumerate(names)}

    def detail(name: str) -> str:
        i = position[name]
        return detailed_line(add_details(stats[name], frame.iloc[:, i], sampled.iloc[:, i]), i)

    if cols <= WIDE_COLUMNS:
        summary_b = "\n".join(detail(name) for name in names)
        text = f"{header}\n{summary_b}"
        return DatasetProfile(ds.id, text, count_tokens(text), "B", None, summary_b, names)

    if summary_a_budget is None:
        summary_a_budget = SUMMARY_A_BUDGET * min(token_budget, TOKEN_BUDGET) // TOKEN_BUDGET
    summary_a = _summary_a(stats, position, question, count_tokens(header), summary_a_budget)
    used = count_tokens(f"{header}\n{summary_a}\n") + 12
    chosen: dict[str, str] = {}
    forced = must_detail(stats, question, relevant_columns)
    for name in rank_columns(stats, question, relevant_columns)[:max_detailed]:
        line = detail(name)
        cost = count_tokens(line) + 1
        if used + cost > token_budget and name not in forced:
            continue  # a shorter line further down the ranking may still fit
        chosen[name] = line
        used += cost
    detailed = [name for name in names if name in chosen]
    summary_b = f"Detailed, {len(detailed)} of {cols} columns:\n" + "\n".join(chosen[n] for n in detailed)
    text = f"{header}\n{summary_a}\n{summary_b}"
    return DatasetProfile(ds.id, text, count_tokens(text), "A+B", summary_a, summary_b, detailed)


def _use_exact(stats: Mapping[str, ColumnStats], big: BigFile) -> None:
    """A big file's column figures: DuckDB's exact ones where it has them; unique counts and top
    values of the sample are marked as such (approximate counts, shares of the sample)."""
    sampled = big.sample_rows < big.rows
    for name, s in stats.items():
        if sampled and s.unique is not None:
            s.unique_approx = True
        if sampled and s.top and not s.top_is_share:
            s.top = [(value, round(100 * n / max(s.rows, 1), 1)) for value, n in s.top]
            s.top_is_share = True
        figures = big.exact.get(name)
        if figures:
            s.rows, s.missing = big.rows, int(figures["missing"])  # type: ignore[call-overload]
            if s.kind in ("num", "datetime") and figures["low"] is not None:
                s.low, s.high = figures["low"], figures["high"]


def _summary_a(stats: Mapping[str, ColumnStats], position: Mapping[str, int], question: str | None, header_tokens: int,
               budget_a: int = SUMMARY_A_BUDGET) -> str:
    """One compact line per column in table order, as many as ``budget_a`` (:data:`SUMMARY_A_BUDGET`
    for a lone table) holds (chosen by :func:`rank_columns` for the question), then a count of the
    rest by dtype."""
    budget, used, listed = budget_a - header_tokens, 0, {}
    for name in rank_columns(stats, question, None):
        line = compact_line(stats[name], position[name])
        cost = count_tokens(line) + 1
        if used + cost > budget:
            break
        listed[name], used = line, used + cost
    head = "All columns (name: dtype u=unique miss=missing% mean):\n"
    if len(listed) == len(stats):
        return head + "\n".join(listed[name] for name in stats)
    rest = Counter(short_dtype(s.dtype) for name, s in stats.items() if name not in listed)
    kinds = ", ".join(f"{n:,} {dtype}" for dtype, n in rest.most_common())
    return (f"Columns (name: dtype u=unique miss=missing% mean), {len(listed)} of {len(stats):,} listed:\n"
            + "\n".join(listed[name] for name in stats if name in listed)
            + f"\n… {len(stats) - len(listed):,} more columns not listed ({kinds}): df.columns names them all")


def budget_share(datasets: int) -> int:
    """The token budget of one table's profile when ``datasets`` tables share the prompt."""
    return max(MIN_SHARE, min(TOKEN_BUDGET, PROFILES_BUDGET // max(1, datasets)))


def summarize_datasets(datasets: Mapping[str, Dataset], question: str | None = None) -> str:
    """Every dataset's profile, in input order, for the prompt; a lone dataset is also ``df``."""
    share = budget_share(len(datasets))
    texts = [profile_dataset(ds, question, token_budget=share).text for ds in datasets.values()]
    if len(texts) == 1:
        texts[0] = "df = " + texts[0]  # the sandbox binds df when there is exactly one dataset
    return "\n\n".join(texts)


# --- choosing the detailed columns ----------------------------------------------------------


def name_words(text: str) -> list[str]:
    """A name or question as lower-case words: camelCase and snake_case split, any script's
    letters and digits kept (``Unit_Price`` and ``unitPrice`` → ``unit``, ``price``)."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", str(text))  # camelCase -> camel Case
    return re.findall(r"[^\W_]+", spaced.casefold())


def rank_columns(
    stats: Mapping[str, ColumnStats], question: str | None, relevant: Sequence[str] | None
) -> list[str]:
    """Named columns, then those the question mentions, then keys, incomplete, numeric, the rest."""
    names = list(stats)
    by_norm = {" ".join(name_words(n)): n for n in names}
    ordered: list[str] = []
    for wanted in relevant or ():
        name = wanted if wanted in stats else by_norm.get(" ".join(name_words(wanted)))
        if name and name not in ordered:
            ordered.append(name)

    q_words = name_words(question or "")
    q_text = f" {' '.join(q_words)} "
    q_set = {w for w in q_words if w not in _STOPWORDS and (len(w) > 2 or w.isdigit())}
    words_of = {name: name_words(name) for name in names}
    # A word shared by many column names ("col", "total") says little about which one is meant.
    spread: dict[str, int] = {}
    for words in words_of.values():
        for w in set(words):
            spread[w] = spread.get(w, 0) + 1
    scores = {}
    for name, words in words_of.items():
        if words and f" {' '.join(words)} " in q_text:
            scores[name] = 100 + len(words)  # the whole name appears as a phrase
        elif overlap := [w for w in set(words) if w in q_set]:
            scores[name] = sum(1 / spread[w] for w in overlap) + len(overlap) / (10 * len(words))
    question_hits = [n for n in sorted(scores, key=lambda n: -scores[n]) if n not in ordered]
    ordered += question_hits

    def is_key(s: ColumnStats) -> bool:
        named = bool(_KEY_NAME.search(s.name))
        distinct = s.kind in ("num", "text") and s.unique == s.rows - s.missing and not s.unique_approx
        return named or (distinct and s.kind == "text")

    groups = (
        [n for n in names if is_key(stats[n])],
        sorted((n for n in names if stats[n].missing), key=lambda n: -stats[n].missing),
        [n for n in names if stats[n].kind == "num"],
        names,
    )
    for group in groups:
        ordered += [n for n in group if n not in ordered]
    return ordered


def must_detail(stats: Mapping[str, ColumnStats], question: str | None, relevant: Sequence[str] | None) -> list[str]:
    """Columns named by the caller or spelled out in the question: detailed even over budget."""
    wanted = list(relevant or ())
    q_text = f" {' '.join(name_words(question or ''))} "
    wanted += [n for n in stats if name_words(n) and f" {' '.join(name_words(n))} " in q_text]
    by_norm = {" ".join(name_words(n)): n for n in stats}
    found = [w if w in stats else by_norm.get(" ".join(name_words(w))) for w in wanted]
    return list(dict.fromkeys(n for n in found if n))[:_MAX_FORCED]


# --- rendering --------------------------------------------------------------------------------
