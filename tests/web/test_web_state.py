"""The web app's state steps, renderer helpers and downloads, without a browser or a Streamlit run."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from dsagent.errors import ProviderError, UserError
from dsagent.reports.model import Report, Section
from dsagent.runtime import ProgressEvent
from dsagent.session import AnalysisResult
from dsagent.web import state as web_state
from dsagent.web.downloads import figure_files, report_files
from dsagent.web.progress import node_line
from dsagent.web.render import demote_headings, report_of

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "sum"}


@pytest.fixture
def state():
    data: dict = {}
    web_state.init_state(data)
    yield data
    if data.get("session") is not None:
        data["session"].close()


def test_init_state_takes_model_and_workflow_from_settings(monkeypatch):
    monkeypatch.setenv("DSAGENT_MODEL", "scripted:x.json")
    data: dict = {}
    web_state.init_state(data)
    assert data["model_spec"] == "scripted:x.json" and data["workflow"] == "quick"
    assert data["messages"] == [] and data["session"] is None and data["workspace_dir"] is None
    data["messages"].append("kept")
    web_state.init_state(data)  # a rerun keeps what is there
    assert data["messages"] == ["kept"]


@pytest.mark.parametrize("name, expected", [
    ("sales.csv", "sales.csv"), ("../../etc/passwd", "passwd"), ("C:\\Users\\me\\data.xlsx", "data.xlsx"),
    (".hidden.csv", "hidden.csv"), ("", "upload"), ("a\x00b.csv", "a_b.csv"),
])
def test_safe_name_keeps_one_harmless_component(name, expected):
    assert web_state.safe_name(name) == expected


def test_uploads_are_saved_in_the_workspace_only(state, tmp_path):
    errors = web_state.load_uploads(state, [("../escape.csv", b"a,b\n1,2\n3,4\n")])
    assert errors == []
    workspace = Path(state["workspace_dir"])
    assert workspace.parent == tmp_path / "workspace" and workspace.name.isdigit()  # <root>/<yyyymmddhhmmss>
    assert (workspace / "uploads" / "escape.csv").read_bytes() == b"a,b\n1,2\n3,4\n"
    assert not (tmp_path / "escape.csv").exists()
    session = state["session"]
    assert list(state["datasets"]) == ["escape"]
    assert session.datasets["escape"].source_path == workspace / "uploads" / "escape.csv"
    assert session.workspace.parent == workspace / "runs"


def test_bad_upload_is_named_and_the_good_ones_still_load(state):
    errors = web_state.load_uploads(state, [("good.csv", b"x,y\n1,2\n"), ("broken.xlsx", b"not a workbook"), ("empty.csv", b"")])
    assert len(errors) == 2
    assert "broken.xlsx" in errors[0] and "empty.csv" in errors[1] and "empty" in errors[1]
    assert list(state["datasets"]) == ["good"]
    assert state["upload_errors"] == errors


def test_only_bad_uploads_leave_no_session(state):
    errors = web_state.load_uploads(state, [("notes.docx", b"hello")])
    assert state["session"] is None and "notes.docx" in errors[0] and "unsupported file type" in errors[0]


def test_sync_uploads_reloads_only_when_the_files_change(state):
    reads = []

    def read():
        reads.append(1)
        return [("a.csv", b"v\n1\n2\n")]

    web_state.sync_uploads(state, (("a.csv", 6, "id1"),), read)
    first = state["session"]
    web_state.sync_uploads(state, (("a.csv", 6, "id1"),), read)
    assert len(reads) == 1 and state["session"] is first
    web_state.sync_uploads(state, (), read)  # all files removed
    assert state["session"] is None and state["datasets"] == {}


def test_ask_appends_the_answer_and_never_raises(state, script_file, sales_csv, monkeypatch):
    web_state.load_uploads(state, [("sales.csv", sales_csv.read_bytes())])
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed."])
    monkeypatch.setenv("DSAGENT_MODEL", spec)  # the operator's model changed (a page may not name a script)
    events = []
    message = web_state.ask(state, "How many units?", "quick", spec, events.append)
    assert message["error"] is None and message["content"] == "Total units computed."
    assert [m["role"] for m in state["messages"]] == ["user", "assistant"]
    assert ("node_start", "plan") in [(e.kind, e.node) for e in events]
    # The model spec changed from the settings' default: the session was re-opened over the same file.
    assert state["session"].settings.model == spec and len(state["session"].history) == 2
    # Out of replies: a provider error becomes one readable line in the chat.
    failed = web_state.ask(state, "And again?", "quick", spec)
    assert failed["result"] is None and "ran out of replies" in failed["error"]
    assert len(state["messages"]) == 4


def test_a_new_model_spec_keeps_the_conversation(state, script_file, sales_csv, monkeypatch):
    web_state.load_uploads(state, [("sales.csv", sales_csv.read_bytes())])
    state["session"].history.extend(["q", "a"])
    spec = script_file([])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    session = web_state.session_for(state, spec)
    assert session.settings.model == spec and session.history == ["q", "a"]
    assert web_state.session_for(state, spec) is session  # same spec: same session


def test_asking_without_data_or_with_a_bad_model_says_what_to_do(state, sales_csv):
    message = web_state.ask(state, "anything?", "quick", "local")
    assert "upload a data file first" in message["error"]
    web_state.load_uploads(state, [("sales.csv", sales_csv.read_bytes())])
    message = web_state.ask(state, "anything?", "quick", "bogus:model")
    assert "the model bogus:model is not one this server offers" in message["error"]
    assert "allowed_models" in message["error"]


def test_one_line_names_internal_errors():
    assert web_state.one_line(UserError("bad file\n  fix it")) == "bad file fix it"
    assert web_state.one_line(ProviderError("timeout")) == "timeout"
    assert web_state.one_line(KeyError("x")) == "internal error (KeyError): 'x'"


def test_awaiting_reply_after_an_ask_turn(state):
    assert not web_state.awaiting_reply(state)
    state["messages"] += [{"role": "user", "content": "q"}, {"role": "assistant", "result": AnalysisResult(output_type="ask", explanation="Which column?"), "error": None}]
    assert web_state.awaiting_reply(state)


def test_reset_conversation_keeps_the_files(state, sales_csv):
    web_state.load_uploads(state, [("sales.csv", sales_csv.read_bytes())])
    old = state["session"]
    old.history.append("x")
    state["messages"].append({"role": "user", "content": "q"})
    web_state.reset_conversation(state)
    assert state["messages"] == [] and state["session"] is not old and state["session"].history == []
    assert list(state["datasets"]) == ["sales"]


def test_node_line_marks_outcomes():
    assert node_line(ProgressEvent("node_start", "plan")) is None
    assert node_line(ProgressEvent("node_end", "plan", 0.42, "ok")) == "✓ **plan** 0.4s"
    assert node_line(ProgressEvent("node_end", "code", 1.0, "failed", "KeyError")) == "✗ **code** 1.0s — KeyError"


def test_demote_headings_leaves_code_alone():
    text = "## Answer\n\nNorth.\n```python\n# a comment\n```\n# Title"
    assert demote_headings(text) == "#### Answer\n\nNorth.\n```python\n# a comment\n```\n### Title"


def test_report_of_falls_back_to_the_plain_fields(tmp_path):
    result = AnalysisResult(explanation="North leads.", result_str="North 17", figures=[str(tmp_path / "f.json"), str(tmp_path / "f.png")],
                            code="result = 1", alignment_caveats=["small sample"], workspace=str(tmp_path))
    report = report_of(result)
    assert [s.section_type for s in report.sections] == ["text", "text", "plotly", "image", "code"]
    assert report.caveats == ["small sample"]
    own = Report(title="t", sections=[Section(section_type="text", content="x")])
    assert report_of(result.model_copy(update={"report": own})) is own


def test_downloads_offer_the_report_and_the_figures(tmp_path):
    (tmp_path / "figures").mkdir()
    chart = tmp_path / "figures" / "cell_1.json"
    chart.write_text(json.dumps({"data": [], "layout": {}}))
    md = tmp_path / "report.md"
    md.write_text("# report")
    report = Report(title="t", sections=[Section(section_type="plotly", content="figures/cell_1.json"),
                                         Section(section_type="image", content="figures/missing.png")],
                    meta={"workspace": str(tmp_path)})
    result = AnalysisResult(explanation="x", report_path=str(md), run_id="r1", report=report)
    files = report_files(result, report)
    labels = [f[0] for f in files]
    assert labels[0] == "Report (.md)" and files[0][1]() == b"# report" and files[0][2] == "report.md"
    html = [f for f in files if f[2] == "report.html"]
    if html:  # the HTML renderer is installed: made on click, from the report
        assert "<html" in html[0][1]()
    figures = figure_files(report)
    assert [(f[2], f[3]) for f in figures] == [("cell_1.json", "application/json")]  # the missing PNG is skipped
    assert figures[0][1]() == chart.read_bytes()


def test_scripted_delay_is_read_from_the_environment(tmp_path, monkeypatch):
    from langchain_core.messages import HumanMessage

    from dsagent.llm.scripted import ScriptedChatModel

    path = tmp_path / "r.json"
    path.write_text(json.dumps(["one"]))
    assert ScriptedChatModel.from_file(path).delay_s == 0.0
    monkeypatch.setenv("DSAGENT_SCRIPTED_DELAY", "0.3")
    model = ScriptedChatModel.from_file(path)
    started = time.perf_counter()
    assert model.invoke([HumanMessage(content="hi")]).content == "one"
    assert model.delay_s == 0.3 and time.perf_counter() - started >= 0.3
    monkeypatch.setenv("DSAGENT_SCRIPTED_DELAY", "soon")
    with pytest.raises(UserError, match="DSAGENT_SCRIPTED_DELAY"):
        ScriptedChatModel.from_file(path)
