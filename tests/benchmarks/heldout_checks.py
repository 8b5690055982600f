"""Checks that the held-out question sets share (benchmarks/heldout, heldout_c and heldout_d-j).

Each batch is a folder with ``questions.jsonl`` (DABench layout), ``labels.jsonl`` and a
``make_tables.py`` whose ``TABLES`` names the tables it builds; batches D-J also have a
``make_labels.py`` whose ``computed(folder)`` labels any folder of tables, and a
``solve_independent.py`` whose ``solve(Tables(folder))`` answers again with other code. The
functions here check one batch each; ``HeldoutBatchChecks`` is the whole set of checks of a batch
D-J, which a test module subclasses with its batch's folder and first id (pytest collects the
subclass, named ``Test...``, not this base), adding the checks that are the batch's own.

Only the layout and the labels are checked: no question text or value is asserted.
"""

from __future__ import annotations

import importlib.util
import json
import runpy
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))
from dabench_scoring import expected_names  # noqa: E402

KEYS = {"id", "question", "concepts", "constraints", "format", "file_name", "level"}
LEVELS = {"easy", "medium", "hard"}


def rows(path: Path) -> list[dict]:
    """The rows of a JSON-lines file; blank lines are skipped."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def answers(path: Path) -> dict[int, list[list[str]]]:
    """Question id -> common_answers of a labels-layout file."""
    return {row["id"]: row["common_answers"] for row in rows(path)}


def check_layout(batch: Path, *, first_id: int, count: int, levels: Counter | None = None,
                 most_multi: int | None = None, fewest_tables: int = 1) -> None:
    """Questions and labels match one to one: ``count`` ids from ``first_id`` on with no gap, the
    same ids in the same order in ``labels.jsonl``, every DABench field present and filled, a level
    from easy/medium/hard, a table the batch builds, and label names that are the format's
    ``@name[...]`` items in order with a non-empty value each.

    ``levels`` pins the number of questions per level (else all three levels must occur),
    ``most_multi`` caps the questions that ask for more than one name, ``fewest_tables`` is how
    many different tables the questions must use.
    """
    questions, labels = rows(batch / "questions.jsonl"), rows(batch / "labels.jsonl")
    tables = runpy.run_path(str(batch / "make_tables.py"))["TABLES"]
    ids = [q["id"] for q in questions]
    assert len(set(ids)) == len(ids)
    assert ids == list(range(first_id, first_id + count)) and len(ids) == count
    assert ids == [a["id"] for a in labels]
    given = {a["id"]: a["common_answers"] for a in labels}
    for q in questions:
        assert set(q) == KEYS, q["id"]
        assert all(isinstance(q[k], str) and q[k].strip() for k in KEYS - {"id", "concepts"}), q["id"]
        assert isinstance(q["concepts"], list) and q["concepts"], q["id"]
        assert q["level"] in LEVELS, q["id"]
        assert q["file_name"] in tables, q["id"]
        names = expected_names(q["format"])
        assert names and names == [name for name, _ in given[q["id"]]], q["id"]
        assert all(isinstance(value, str) and value for _, value in given[q["id"]]), q["id"]
    if levels is None:
        assert {q["level"] for q in questions} == LEVELS
    else:
        assert Counter(q["level"] for q in questions) == levels
    if most_multi is not None:
        assert sum(len(expected_names(q["format"])) > 1 for q in questions) <= most_multi
    assert len({q["file_name"] for q in questions}) >= fewest_tables


def check_ids_are_own(batch: Path) -> None:
    """No id of the batch is used by any other held-out batch (a result is keyed by id)."""
    ours = {q["id"] for q in rows(batch / "questions.jsonl")}
    others = [path for path in BENCH.glob("heldout*/questions.jsonl") if path.parent != batch]
    assert others
    for other in others:
        assert not ours & {q["id"] for q in rows(other)}, other


def check_stored_answers_agree(batch: Path) -> dict[int, list[list[str]]]:
    """The stored independent answers are the labels, value for value; returns them."""
    stored = answers(batch / "independent_answers.jsonl")
    assert stored == answers(batch / "labels.jsonl")
    return stored


def shipped_make_tables(batch: Path, *packages: str) -> dict:
    """The globals of the batch's ``make_tables.py``, for a check that its tables are the data the
    packages ship: skips when one of ``packages`` is missing, and checks that ``SOURCES`` (where each
    table comes from) names exactly the tables ``TABLES`` builds."""
    for package in packages:
        pytest.importorskip(package)
    make_tables = runpy.run_path(str(batch / "make_tables.py"))
    assert set(make_tables["TABLES"]) == set(make_tables["SOURCES"])
    return make_tables


def packaged_make_tables(batch: Path, packages: Iterable[str], import_them: bool = True) -> dict:
    """The globals of the batch's ``make_tables.py``, whose tables are the data of exactly
    ``packages`` (batch M on): skips when one of them is missing, as ``shipped_make_tables`` does
    (``import_them`` False: a package only has to be found, not imported, for one whose
    ``__init__`` needs ``pkg_resources``), and checks that ``SOURCES`` names those packages and no
    other."""
    packages = tuple(packages)
    if not import_them:
        for package in packages:
            if importlib.util.find_spec(package) is None:
                pytest.skip(f"{package} is not installed")
    make_tables = shipped_make_tables(batch, *(packages if import_them else ()))
    assert {package for package, _ in make_tables["SOURCES"].values()} == set(packages)
    return make_tables


def check_same_bytes(built: Path, names: Iterable[str], source_of: Callable[[str], Path]) -> None:
    """Each table in ``names``, as built, is its shipped file ``source_of(name)`` byte for byte."""
    for name in names:
        assert (built / name).read_bytes() == Path(source_of(name)).read_bytes(), name


def check_same_values(built: Path, name: str, source: Path, sep: str, unquote: bool = False) -> None:
    """The table ``name``, as built, holds the values of its shipped file unchanged: the same frame
    as pandas reads from ``source`` with separator ``sep`` (``unquote``: the shipped column names
    lose their single quotes, as the builder writes them)."""
    import pandas as pd

    ours = pd.read_csv(built / name)
    theirs = pd.read_csv(source, sep=sep)
    if unquote:
        theirs.columns = [column.strip("'") for column in theirs.columns]
    pd.testing.assert_frame_equal(ours, theirs)


class HeldoutBatchChecks:
    """The checks of a held-out batch D-J. A subclass sets ``batch`` (its folder), ``first_id`` and,
    where its questions use more tables, ``fewest_tables``; every batch has 40 questions, 10 easy,
    16 medium and 14 hard, at most 8 of them asking for more than one name."""

    batch: Path
    first_id: int
    fewest_tables = 6

    @pytest.fixture(scope="class")
    @classmethod
    def built(cls, tmp_path_factory: pytest.TempPathFactory) -> Path:
        """The batch's tables, built afresh into a temporary folder, once for all its tests."""
        folder = tmp_path_factory.mktemp(f"{cls.batch.name}_tables")
        runpy.run_path(str(cls.batch / "make_tables.py"))["build"](folder)
        return folder

    def test_layout_matches_its_labels_one_to_one(self) -> None:
        check_layout(self.batch, first_id=self.first_id, count=40, levels=Counter(easy=10, medium=16, hard=14),
                     most_multi=8, fewest_tables=self.fewest_tables)

    def test_ids_do_not_collide_with_other_batches(self) -> None:
        check_ids_are_own(self.batch)

    def test_tables_build_for_every_question(self, built: Path) -> None:
        for q in rows(self.batch / "questions.jsonl"):
            assert (built / q["file_name"]).is_file(), q["id"]

    def test_labels_compute_again_from_freshly_built_tables(self, built: Path) -> None:
        computed = runpy.run_path(str(self.batch / "make_labels.py"))["computed"]
        assert computed(built) == answers(self.batch / "labels.jsonl")

    def test_independent_solution_agrees_with_the_labels(self, built: Path) -> None:
        stored = check_stored_answers_agree(self.batch)
        pytest.importorskip("duckdb")
        solver = runpy.run_path(str(self.batch / "solve_independent.py"))
        assert solver["solve"](solver["Tables"](built)) == stored
