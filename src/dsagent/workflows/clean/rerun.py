"""``dsagent clean --rerun data_cleaner.py NEW.csv``: run a saved cleaner again, inside the sandbox.

A saved cleaner holds code a model wrote (``custom_steps``, or a function the fix node rewrote);
it ran in the sandbox once, and it runs there again here (issue 38, finding 7), never in dsagent's
process or with ``python``: the same :class:`~dsagent.sandbox.Sandbox` the workflow uses (no
network, reads only the Python installation and the session's data files, writes only its own
folder, memory, time and file-size limits). The new files are read by dsagent and reach the code
as ``datasets``; they are never written. The cleaned CSV and Parquet go to a new workspace under
``workspace_root`` (``cleaned/<name>_cleaned.csv``), copied out of the sandbox's folder as the
workflow copies them (regular files reached without links, size-capped).

What the cleaner does to the rows is not reviewed again: no findings, no guards; the output is
whatever the saved code returns, with the rows and columns before → after shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dsagent.errors import UserError
from dsagent.workflows.clean import cleaner_file, execute


@dataclass
class RerunOutcome:
    status: str
    """"done", or "error" when the cleaner failed on a table (the sandbox refused something, or it raised)."""
    cleaner: str
    workspace: str
    cleaned_files: list[str] = field(default_factory=list)
    """The cleaned CSV first, then the Parquet (for each table in turn)."""
    shapes: dict[str, list[int]] = field(default_factory=dict)
    """{table: [rows before, rows after, columns before, columns after]}."""
    error: str | None = None

    def to_json(self) -> dict:
        return asdict(self)


def rerun(cleaner: str | Path, paths: Any, *, settings: Any = None, on_progress: Callable | None = None) -> RerunOutcome:
    """Run the ``data_cleaner`` saved in ``cleaner`` on each file of ``paths`` in the sandbox."""
    from dsagent.config import load_settings
    from dsagent.session import Session

    code = cleaner_file.read_cleaner(str(cleaner))
    settings = settings or load_settings()
    items: Sequence[Any] = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if not items:
        raise UserError("give the data file(s) to clean: dsagent clean --rerun data_cleaner.py NEW.csv")
    with Session(list(items), settings=settings, progress=on_progress) as session:
        whole = [ds.name for ds in session.datasets.values() if ds.big is not None or ds.table is not None or ds.frame is None]
        if whole:
            raise UserError(f"{whole[0]}: --rerun runs the cleaner on the whole table in the sandbox's memory; this one is a database table "
                            f"or a file above big_file_mb ({settings.big_file_mb} MB): clean it with dsagent clean (chunk by chunk)")
        sandbox = session._ready_sandbox()
        files: list[str] = []
        shapes: dict[str, list[int]] = {}
        errors: list[str] = []
        for ds_id, ds in session.datasets.items():
            stem = Path(str(ds.source_path or ds_id)).stem if len(session.datasets) == 1 else ds_id
            cell, names = execute.cell(code, "data_cleaner", ds_id, stem)
            run = sandbox.run(cell)
            info = execute.parse_info(run.stdout) if run.success else None
            if info is None:
                errors.append(f"{ds.name}: " + (run.error or "the cleaner printed no result").strip())
                continue
            copied = execute.collect(sandbox, names, settings.sandbox_file_mb * 1024 * 1024)
            if "csv" not in copied or "parquet" not in copied:
                errors.append(f"{ds.name}: the cleaned CSV or Parquet could not be taken from the sandbox (missing, a link, or too large)")
                continue
            files += [copied["csv"], copied["parquet"]]
            shapes[ds.name] = [len(ds.frame), int(info["rows"]), ds.frame.shape[1], len(info["columns"])]
        return RerunOutcome(status="error" if errors else "done", cleaner=str(Path(cleaner).resolve()), workspace=str(session.workspace),
                            cleaned_files=files, shapes=shapes, error="\n".join(errors) or None)
