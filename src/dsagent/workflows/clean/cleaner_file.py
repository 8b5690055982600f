"""``data_cleaner.py``: the file that keeps the reviewed cleaner, and the code ``--rerun`` takes from it.

The file holds exactly the code that was shown in the review (or accepted with ``--yes``) and ran
in the sandbox (issue 38, finding 7): the model writes parts of it (``custom_steps``, or a whole
function the fix node rewrote), so it must never run outside the sandbox by accident. Its first
statement refuses ``python data_cleaner.py`` and says to run ``dsagent clean --rerun
data_cleaner.py NEW.csv``, which runs the code after the mark in the same sandbox as the workflow.
The data's name is written as a ``repr`` in a comment, so no file name can add code to the file.
"""

from __future__ import annotations

import ast

from dsagent.errors import UserError

MARK = "# --- the reviewed code (it ran in dsagent's sandbox; re-run it there with `dsagent clean --rerun`) ---"
MAX_BYTES = 1024 * 1024


def file_name(ds_id: str, tables: int) -> str:
    """``data_cleaner.py`` for one table, ``data_cleaner_<id>.py`` for each of several."""
    return "data_cleaner.py" if tables == 1 else f"data_cleaner_{ds_id}.py"


def render(name: str, file: str, source: str) -> str:
    """The text of the saved file: a refusal to run as a script, the mark, then ``source`` verbatim."""
    rerun = f"dsagent clean --rerun {file} NEW.csv"
    return (f"# Data cleaner written by dsagent (clean workflow) for {name!r}.\n"
            "# Below the mark: the code that was reviewed (or accepted with --yes) and ran in dsagent's sandbox.\n"
            f"# Re-run it on a new file inside that sandbox (the input is only read; the output goes to a workspace):\n"
            f"#     {rerun}\n"
            "# Do not run this file with python: outside the sandbox nothing limits what the code does.\n\n"
            "if __name__ == '__main__':\n"
            f"    raise SystemExit({('Re-run this cleaner inside dsagent' + chr(39) + 's sandbox: ' + rerun)!r})\n\n"
            f"{MARK}\n{source}")


def code_of(text: str) -> str:
    """The code ``--rerun`` runs: what follows the mark; a file without it (an older or hand-written
    cleaner), its text without ``if __name__ == '__main__':`` blocks (they would read the raw file)."""
    if MARK in text:
        return text.split(MARK + "\n", 1)[1] if MARK + "\n" in text else text.split(MARK, 1)[1]
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise UserError(f"the cleaner is not valid Python (line {exc.lineno}: {exc.msg}); pass a data_cleaner.py that dsagent clean wrote") from exc
    lines = text.splitlines(keepends=True)
    for node in reversed(tree.body):
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            del lines[node.lineno - 1:node.end_lineno]
    return "".join(lines)


def read_cleaner(path: str) -> str:
    """The code of a cleaner file for ``--rerun``, or a UserError naming the fix."""
    from pathlib import Path

    file = Path(path)
    if not file.is_file():
        raise UserError(f"{path}: no such cleaner file; pass the data_cleaner.py that dsagent clean wrote in its workspace")
    if file.stat().st_size > MAX_BYTES:
        raise UserError(f"{path}: larger than {MAX_BYTES // 1024} KB, not a cleaner dsagent wrote")
    code = code_of(file.read_text(encoding="utf-8", errors="replace"))
    if "def data_cleaner(" not in code:
        raise UserError(f"{path}: defines no data_cleaner(data_raw) function; pass the data_cleaner.py that dsagent clean wrote")
    return code
