"""Finding 1: symlinks planted by the code must never make dsagent (unconfined, often root) write
or read through them. Reproduced end to end: the scripted model serves the attack code to the
quick workflow, and dsagent then writes its cells and reports."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dsagent.session import Session
from tests.security.conftest import BASES

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute"}


def _plant(links: dict[str, str]) -> str:
    """Code that plants each ``name -> target`` link below every base it can write."""
    return BASES + (
        f"links = {links!r}\n"
        "planted = []\n"
        "for base in bases:\n"
        "    for name, target in links.items():\n"
        "        path = os.path.join(base, name)\n"
        "        try:\n"
        "            os.makedirs(os.path.dirname(path), exist_ok=True)\n"
        "            if os.path.lexists(path):\n"
        "                os.unlink(path)\n"
        "            os.symlink(target, path)\n"
        "            planted.append(path)\n"
        "        except OSError:\n"
        "            pass\n"
        "result = len(df)\n"
    )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_cell_symlink_to_the_input_file_does_not_overwrite_it(script_file, sales_csv: Path) -> None:
    before = _digest(sales_csv)
    attack = _plant({"cells/cell_2.py": str(sales_csv), "cells/cell_3.py": str(sales_csv)})
    spec = script_file([PLAN, attack, "Done.", PLAN, "result = df['units'].sum()", "The total."])
    with Session([sales_csv], model=spec) as session:
        session.ask("How many rows?")
        second = session.ask("What is the total of units?")
    assert _digest(sales_csv) == before, "dsagent wrote a cell through a symlink into the user's file"
    assert second.error is None and second.result_str is not None


def test_report_symlinks_do_not_write_outside(script_file, sales_csv: Path, outside: Path) -> None:
    rc = outside / ".bashrc"
    rc.write_text("# the user's shell rc\n")
    page = outside / "index.html"
    page.write_text("<p>the user's page</p>")
    notebook = outside / "notes.ipynb"
    notebook.write_text("{}")
    attack = _plant({"report.md": str(rc), "report.html": str(page), "report.ipynb": str(notebook)})
    attack += "result = 'touch /tmp/dsagent-pwned'\n"
    spec = script_file([PLAN, attack, "touch /tmp/dsagent-pwned"])
    with Session([sales_csv], model=spec) as session:
        result = session.ask("How many rows?")
        from dsagent.reports.export import export_run

        export_run(session.run_log, result.run_id, "ipynb")
    assert rc.read_text() == "# the user's shell rc\n", "the report was written into a file outside the workspace"
    assert page.read_text() == "<p>the user's page</p>"
    assert notebook.read_text() == "{}"
    report = Path(result.report_path)
    assert not report.is_symlink() and "touch" in report.read_text()  # the report itself was written


def test_planted_table_link_is_not_read_back(script_file, sales_csv: Path, outside: Path) -> None:
    """A link where the result table will be saved must not pull a file outside into the report."""
    secret = outside / "secret.csv"
    secret.write_text("token\nSECRET-TABLE-VALUE-42\n")
    secret.chmod(0o600)
    code = BASES + (
        "import pandas as pd\n"
        "for base in bases:\n"
        "    for n in range(1, 4):\n"
        "        p = os.path.join(base, 'tables', f'cell_{n}_result.csv')\n"
        "        try:\n"
        "            os.makedirs(os.path.dirname(p), exist_ok=True)\n"
        "            os.symlink(%r, p + '.lnk')\n"
        "        except OSError:\n"
        "            pass\n"
        "class Frame(pd.DataFrame):\n"
        "    def to_csv(self, path=None, *a, **k):\n"
        "        os.replace(str(path) + '.lnk', str(path))\n"
        "result = Frame({'a': [1, 2]})\n"
    ) % str(secret)
    # each retry attacks again (a comment makes each code new: the same code twice is resampled)
    spec = script_file([PLAN] + [f"{code}# attempt {k}\n" for k in range(3)] + ["Done."] * 3)
    with Session([sales_csv], model=spec) as session:
        result = session.ask("Show a table")
        workspace = Path(result.workspace)
    for path in workspace.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert "SECRET-TABLE-VALUE-42" not in path.read_text(errors="replace"), path
    assert "SECRET-TABLE-VALUE-42" not in json.dumps(result.model_dump(), default=str)
