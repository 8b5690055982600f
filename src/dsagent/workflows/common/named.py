"""What a question names of the loaded data, by code: the columns and tables it spells out.

Used where code can answer a node's question without the model (``decide_by_code``): a question
that names a column of the data is a data question (quick's plan, robust's node 0), and a column
the model asked for exists or not (robust's nodes 2 and 3). Names compare as words: case, ``_``,
spaces and camelCase aside (``Unit_Price`` = "unit price").
"""

from __future__ import annotations

from collections.abc import Mapping

from dsagent.data.catalog import Dataset
from dsagent.data.profile import name_words


def words(text: str) -> str:
    """``text`` as space-separated lower-case words (data.profile.name_words)."""
    return " ".join(name_words(text))


def column_words(datasets: Mapping[str, Dataset]) -> dict[str, str]:
    """Every column of every table, by its name as words (``Unit_Price`` → ``unit price``)."""
    out: dict[str, str] = {}
    for ds in datasets.values():
        for name in ds.frame.columns:
            if said := words(name):
                out.setdefault(said, str(name))
    return out


def names_data(question: str, datasets: Mapping[str, Dataset]) -> list[str]:
    """The columns and tables of ``datasets`` that ``question`` spells out (two letters or more)."""
    text = f" {words(question)} "
    named = [name for w, name in column_words(datasets).items() if len(w) > 1 and f" {w} " in text]
    named += [ds.id for ds in datasets.values() if len(words(ds.id)) > 1 and f" {words(ds.id)} " in text]
    return named
