"""The Streamlit app driven by Streamlit's AppTest: pickers, upload, chat, answers, errors, ask turns.

The real flow uses the scripted model and a real sandbox; the conversation-shape tests put a stub
session into ``st.session_state`` (as the state module documents) so they run in a blink.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dsagent.reports.model import Report, Section
from dsagent.runtime import ProgressEvent
from dsagent.session import AnalysisResult
from dsagent.workflows import WORKFLOWS

APP = str(Path(__file__).resolve().parents[2] / "src" / "dsagent" / "web" / "app.py")
PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "chart"}
CODE = "fig = px.bar(df.groupby('region', as_index=False)['units'].sum(), x='region', y='units', title='Units by region')\nresult = df.groupby('region')['units'].sum().idxmax()"


def app_test() -> AppTest:
    return AppTest.from_file(APP, default_timeout=120)


@pytest.fixture
def closing():
    """Close every real Session a test's app opened (its sandbox worker)."""
    apps: list[AppTest] = []
    yield apps.append
    for at in apps:
        session = at.session_state.get("session") if "session" in at.session_state else None
        if session is not None and hasattr(session, "sandbox"):
            session.close()


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_empty_page_has_the_pickers(monkeypatch):
    at = app_test().run()
    assert not at.exception
    assert at.title[0].value == "dsagent"
    workflow = at.sidebar.selectbox(key="workflow")
    assert workflow.label == "Workflow" and list(workflow.options) == [*WORKFLOWS, "assistant"] and workflow.value == "quick"
    model = at.sidebar.text_input(key="model_spec")
    assert model.label == "Model" and model.value == "local"
    assert at.sidebar.file_uploader[0].label == "Upload data files"
    assert at.chat_input[0].disabled  # nothing to ask about yet
    assert "Upload one or more data files" in at.info[0].value


def test_upload_ask_and_see_the_answer(monkeypatch, script_file, sales_csv, closing):
    spec = script_file([PLAN, f"```python\n{CODE}\n```", "The **West** region sold the most units."])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    at = app_test().run()
    closing(at)
    assert at.sidebar.text_input(key="model_spec").value == spec
    at.sidebar.file_uploader[0].set_value(("sales.csv", sales_csv.read_bytes(), "text/csv"))
    at.run()
    assert not at.exception and not at.error
    workspace = Path(at.session_state["workspace_dir"])
    assert (workspace / "uploads" / "sales.csv").read_bytes() == sales_csv.read_bytes()
    assert any("sales.csv · 40 rows × 4 columns" in c.value for c in at.sidebar.caption)
    assert not at.chat_input[0].disabled

    at.chat_input[0].set_value("Which region sold most?").run()
    assert not at.exception and not at.error
    assert [m.avatar for m in at.chat_message] == ["user", "assistant"]
    assert "The **West** region sold the most units." in texts(at)
    code = [e for e in at.expander if e.label.startswith("Code")]
    assert len(code) == 1 and "px.bar" in code[0].code[0].value
    assert len(at.get("plotly_chart")) == 1
    labels = [b.label for b in at.download_button]
    assert "Report (.md)" in labels and "cell_1.json (chart JSON)" in labels
    result = at.session_state["messages"][-1]["result"]
    assert result.output_type == "visualization" and Path(result.workspace).parent == workspace / "runs"


def test_the_answer_says_whether_it_is_verified(monkeypatch, script_file, sales_csv, closing):
    monkeypatch.setenv("DSAGENT_VERIFY", "1")  # the last two replies are the independent checks (common.verify)
    spec = script_file([PLAN, f"```python\n{CODE}\n```", "The **West** region sold the most units.",
                        "result = df.groupby('region').units.sum().sort_values().index[-1]",
                        "result = df.groupby('region')['units'].sum().idxmax()"])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    at = app_test().run()
    closing(at)
    at.sidebar.file_uploader[0].set_value(("sales.csv", sales_csv.read_bytes(), "text/csv"))
    at.run()
    at.chat_input[0].set_value("Which region sold most?").run()
    assert not at.exception and not at.error
    assert "✓ Verified: two independent computations of the question give the same result" in texts(at)
    assert at.session_state["messages"][-1]["result"].verified is True


def test_a_bad_upload_is_named_and_the_good_one_still_loads(closing):
    at = app_test().run()
    closing(at)
    at.sidebar.file_uploader[0].set_value([("good.csv", b"a,b\n1,2\n3,4\n", "text/csv"), ("broken.xlsx", b"not a workbook", "application/octet-stream")])
    at.run()
    assert not at.exception
    errors = [e.value for e in at.sidebar.error]
    assert len(errors) == 1 and "broken.xlsx" in errors[0]
    assert list(at.session_state["datasets"]) == ["good"]


def test_errors_are_one_readable_line_in_the_chat(monkeypatch, script_file, sales_csv, closing):
    monkeypatch.setenv("DSAGENT_MODEL", script_file([PLAN]))  # runs out of replies at the code node
    at = app_test().run()
    closing(at)
    at.sidebar.file_uploader[0].set_value(("sales.csv", sales_csv.read_bytes(), "text/csv"))
    at.run()
    at.chat_input[0].set_value("Plot units").run()
    assert not at.exception
    assert len(at.error) == 1 and "scripted model ran out of replies" in at.error[0].value
    assert "\n" not in at.error[0].value and "Traceback" not in at.error[0].value
    at.sidebar.text_input(key="model_spec").set_value("bogus:model").run()
    at.chat_input[0].set_value("Plot units").run()
    assert "bogus:model is not one this server offers" in at.error[-1].value and not at.exception


class StubSession:
    """Stands in for a dsagent Session: replays results and records what it was asked."""

    def __init__(self, results: list[AnalysisResult]) -> None:
        self.results = list(results)
        self.asked: list[tuple[str, str]] = []
        self.history: list[str] = []
        self.progress = None
        self.settings = SimpleNamespace(model="stub")
        frame = pd.DataFrame({"region": ["North", "South"], "units": [3, 4]})
        self.datasets = {"sales": SimpleNamespace(id="sales", name="sales.csv", frame=frame, shape=frame.shape, source_path=None)}

    def ask(self, question: str, workflow: str | None = None) -> AnalysisResult:
        self.asked.append((question, workflow))
        self.progress(ProgressEvent("node_start", "reason"))
        self.progress(ProgressEvent("node_end", "reason", 0.1, "ok"))
        self.history += [question, "answer"]
        return self.results.pop(0)


def stub_app(session: StubSession) -> AppTest:
    at = app_test()
    at.session_state["session"] = session
    at.session_state["datasets"] = session.datasets
    at.session_state["model_spec"] = "stub"
    return at.run()


def test_an_ask_turn_waits_for_the_reply_in_the_same_session():
    question = AnalysisResult(output_type="ask", explanation="Which column holds the revenue: `units` or `price`?", workflow="quick")
    answer = AnalysisResult(output_type="analysis", explanation="North earns most.", workflow="quick",
                            report=Report(title="t", sections=[Section(section_type="text", content="North earns most.")]))
    session = StubSession([question, answer])
    at = stub_app(session)
    assert at.chat_input[0].placeholder == "Ask a question about your data …"
    at.chat_input[0].set_value("Which region earns most?").run()
    assert not at.exception
    assert "Which column holds the revenue" in at.info[0].value
    assert at.chat_input[0].placeholder == "Your answer to the agent's question …"
    assert not at.download_button  # a question to the user is not a report
    at.chat_input[0].set_value("units").run()
    assert session.asked == [("Which region earns most?", "quick"), ("units", "quick")]
    assert at.session_state["session"] is session and session.history[-2] == "units"
    assert "North earns most." in texts(at)
    assert at.chat_input[0].placeholder == "Ask a question about your data …"


def test_report_sections_follow_ups_and_caveats(tmp_path):
    png = tmp_path / "chart.png"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.figure(figsize=(2, 1))
    plt.plot([1, 2])
    plt.savefig(png)
    plt.close("all")
    report = Report(
        title="Revenue", question="Which region?",
        sections=[Section(section_type="text", content="## Answer\n\nNorth."),
                  Section(section_type="table", content='[{"region": "North", "revenue": 10}, {"region": "South", "revenue": 7}]', description="Revenue per region"),
                  Section(section_type="image", content="chart.png", description="A line"),
                  Section(section_type="code", content="result = 1\n", description="The code")],
        suggestions=["Break it down by month", "Compare products"], caveats=["Only 2024 is covered."],
        meta={"workspace": str(tmp_path)},
    )
    session = StubSession([AnalysisResult(explanation="North.", report=report, workflow="robust"),
                           AnalysisResult(explanation="By month.", report=Report(title="m", sections=[Section(section_type="text", content="By month.")]))])
    at = stub_app(session)
    at.sidebar.selectbox(key="workflow").set_value("robust").run()
    at.chat_input[0].set_value("Which region?").run()
    assert not at.exception
    assert "#### Answer" in texts(at)  # report headings sized for a chat bubble
    frame = at.dataframe[-1].value
    assert list(frame.columns) == ["region", "revenue"] and frame["revenue"].tolist() == [10, 7]
    assert len(at.image) == 1
    assert [e.label for e in at.expander if e.label.startswith("Code")] == ["Code — The code"]
    assert "Only 2024 is covered." in at.warning[0].value
    assert session.asked[0] == ("Which region?", "robust")
    follow_up = next(b for b in at.button if b.label == "Break it down by month")
    follow_up.click().run()
    assert session.asked[-1] == ("Break it down by month", "robust")
    assert "By month." in texts(at)


def test_status_box_shows_each_node_live():
    def app() -> None:
        from dsagent.runtime import ProgressEvent
        from dsagent.web.progress import StatusProgress

        running = StatusProgress("quick")
        running(ProgressEvent("node_start", "plan"))
        running(ProgressEvent("node_end", "plan", 0.5, "ok"))
        running(ProgressEvent("node_start", "code"))
        running(ProgressEvent("node_end", "code", 1.25, "failed", "KeyError: 'x'"))
        running(ProgressEvent("node_start", "code"))
        finished = StatusProgress("robust")
        finished(ProgressEvent("node_start", "explain"))
        finished(ProgressEvent("node_end", "explain", 0.2, "ok"))
        finished.done()

    at = AppTest.from_function(app).run()
    assert not at.exception
    running, finished = at.status
    assert running.label == "quick: code …" and running.state == "running"
    assert [m.value for m in running.markdown] == ["✓ **plan** 0.5s", "✗ **code** 1.2s — KeyError: 'x'"]
    assert finished.label.startswith("Done in") and finished.state == "complete"


@pytest.mark.skipif("react" not in WORKFLOWS, reason="the react workflow is not in this tree")
def test_react_asks_back_and_the_reply_goes_to_the_same_session(monkeypatch, script_file, sales_csv, closing):
    def reason(action: str, **fields: str) -> dict:
        return {"rationale": f"{action} now", "next_action": action, "instruction": fields.get("instruction"),
                "question": fields.get("question"), "assumption": fields.get("assumption")}

    spec = script_file([
        reason("ask", question="Do you mean the total units per region (my guess), or the average?"),
        reason("act", instruction="Sum units per region", assumption="units means units sold"),
        "result = df.groupby('region')['units'].sum().sort_values(ascending=False)",
        reason("finalize"),
        {"title": "Units by region", "sections": [{"section_type": "text", "content": "**South** sold the most units."}],
         "suggestions": ["Compare months"]},
    ])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    monkeypatch.setenv("DSAGENT_WORKFLOW", "react")
    at = app_test().run()
    closing(at)
    assert at.sidebar.selectbox(key="workflow").value == "react"
    at.sidebar.file_uploader[0].set_value(("sales.csv", sales_csv.read_bytes(), "text/csv"))
    at.run()
    session = at.session_state["session"]
    at.chat_input[0].set_value("Which region is best?").run()
    assert not at.exception and not at.error
    assert at.info[0].value.startswith("Do you mean the total units per region")
    assert at.chat_input[0].placeholder == "Your answer to the agent's question …"
    at.chat_input[0].set_value("The total units, please").run()
    assert not at.exception and not at.error
    assert at.session_state["session"] is session and session.model.remaining == 0
    assert "**South** sold the most units." in texts(at)
    assert "units means units sold" in at.warning[0].value
    assert [b.label for b in at.button if b.label == "Compare months"] == ["Compare months"]


def test_a_hosted_model_says_once_who_receives_what(monkeypatch):
    monkeypatch.setenv("DSAGENT_DATA_SHARING", "schema")
    at = app_test().run()
    assert not any("receives your questions" in c.value for c in at.caption)
    at.sidebar.text_input(key="model_spec").set_value("anthropic:claude-sonnet-4-5").run()
    notices = [c.value for c in at.caption if "receives your questions" in c.value]
    assert len(notices) == 1 and "anthropic receives" in notices[0] and "cell values are masked" in notices[0]
