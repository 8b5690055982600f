"""The web app's clean mode: recommended steps with approve / change controls, then the results."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "src" / "dsagent" / "web" / "app.py")
DECISION = {"reasoning": "Fix the types; keep every record.", "drop_sparse_columns": True, "impute_missing": True, "fix_types": True,
            "drop_duplicates": True, "drop_missing_rows": True, "drop_outliers": True, "skip_findings": [], "extra_steps": []}


def dirty(tmp_path: Path) -> Path:
    rows = ["id,city,price"] + [f"{i},{['Lisbon', 'Porto'][i % 2]},{2.5 + i % 4}" for i in range(40)]
    rows[3] = "3, porto ,\"$1,200.00\""
    rows.append(rows[7])
    path = tmp_path / "prices.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_review_change_then_approve_in_the_browser_app(tmp_path, monkeypatch, script_file):
    # the model is read again for each call of the API (new session): the same script serves each
    spec = script_file([DECISION])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    at = AppTest.from_file(APP, default_timeout=180).run()
    path = dirty(tmp_path)
    at.sidebar.file_uploader[0].set_value(("prices.csv", path.read_bytes(), "text/csv"))
    at.run()
    at.sidebar.radio(key="mode").set_value("Clean").run()
    assert not at.exception
    assert [b.label for b in at.button if b.label == "Recommend steps"]
    at.text_area(key="clean_instructions").set_value("keep every record").run()
    next(b for b in at.button if b.label == "Recommend steps").click().run()
    assert not at.exception and not at.error
    outcome = at.session_state["clean_outcome"]
    assert outcome.status == "needs_review"
    shown = "\n".join(m.value for m in at.markdown)
    assert "Parse 'price' as numbers" in shown and "Remove duplicate rows" in shown
    assert at.button(key="clean_approve").label == "Approve"

    at.text_input(key="clean_change").set_value("do not remove duplicates").run()
    at.button(key="clean_edit").click().run()
    assert not at.exception and not at.error
    again = at.session_state["clean_outcome"]
    assert again.status == "needs_review" and again.thread_id == outcome.thread_id
    assert "Remove duplicate rows" not in again.recommended_steps

    at.button(key="clean_approve").click().run()
    assert not at.exception and not at.error
    done = at.session_state["clean_outcome"]
    assert done.status == "done", done.error
    labels = [b.label for b in at.download_button]
    assert "prices_cleaned.csv" in labels and "prices_cleaned.parquet" in labels and "data_cleaner.py" in labels
    assert json.dumps(done.to_json())
