"""The seed's flows with the scripted model: each reply is the router's choice, a plan, code or an answer."""

from __future__ import annotations

import json
from pathlib import Path

from dsagent.workflows.assistant import Configuration, run_turn
from dsagent.workflows.assistant.configuration import AgentLLM

from .conftest import decide, raw_digest

IRIS_MODEL_CODE = """```python
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score
data = datasets['iris'].copy()
X = data[['sepal_length', 'sepal_width', 'petal_length', 'petal_width']]
y = data['species']
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
model = RandomForestClassifier(random_state=0).fit(X_train, y_train)
result = {'accuracy': accuracy_score(y_test, model.predict(X_test)),
          'feature_importance': dict(zip(X.columns, model.feature_importances_.round(3)))}
fig = px.bar(x=list(X.columns), y=model.feature_importances_)
```"""


def conf(spec: str, **kw) -> Configuration:
    return Configuration(agent_llm=AgentLLM(model=spec), **kw)


def test_typical_flow_list_summarize_respond(project: Path, script_file):
    before = raw_digest(project)
    spec = script_file([decide("list_data_files"), decide("summarize_data"), decide("none"),
                        "You have 2 files, iris.csv and tips.csv. Next, I can suggest analysis tasks."])
    out = run_turn("Analyze my data", project_dir=project, configuration=conf(spec))
    assert [c["name"] for c in out.tool_calls] == ["list_data_files", "summarize_data"]
    assert "Found 2 data file(s)" in out.tool_results[0] and "Next step:" in out.tool_results[0]
    assert "✓ Summarized 2 file(s)" in out.tool_results[1]
    assert out.answer.startswith("You have 2 files")
    assert sorted(p.name for p in (project / "data" / "summaries").glob("*.md")) == ["iris.csv.md", "tips.csv.md"]
    assert raw_digest(project) == before


def test_four_question_pipeline_on_one_thread(project: Path, script_file):
    """The seed's integration test: list, summarize, suggest, run task T1 — no errors, T1 executed."""
    before = raw_digest(project)
    spec = script_file([
        decide("list_data_files"), decide("none"), "Two files.",
        decide("summarize_data"), decide("none"), "Summarized.",  # a summary alone: asked whether a question is left
        decide("suggest_tasks"), "Here are the tasks.",
        # "Run task T1": the model asks for stage 4; code queues stage 3 (its plan) first.
        decide("execute_analysis"), {"steps": ["Select the four measurements", "Split 75/25", "Fit a random forest", "Report accuracy and importance"]},
        IRIS_MODEL_CODE, "The model classifies species with high accuracy.", "T1 is done: see its report.",
    ])
    c = conf(spec)
    thread = None
    calls = []
    for query in ["List my data files", "Summarize the data", "Suggest tasks", "Run task T1"]:
        out = run_turn(query, project_dir=project, thread_id=thread, configuration=c)
        thread = out.thread_id
        calls.append([(t["name"], t["args"]) for t in out.tool_calls])
        assert not any(r.startswith("Error") for r in out.tool_results), out.tool_results
    assert calls[:3] == [[("list_data_files", {})], [("summarize_data", {})], [("suggest_tasks", {})]]
    assert calls[3] == [("plan_analysis", {"task_id": "T1"}), ("execute_analysis", {"task_id": "T1"})]
    tasks = json.loads((project / "data" / "tasks.json").read_text())["tasks"]
    assert tasks[0]["id"] == "T1" and tasks[0]["kind"] == "model" and tasks[0]["file"] == "iris.csv"
    assert (project / "data" / "intermediate" / "T1_plan.json").is_file()
    result = json.loads((project / "data" / "intermediate" / "T1_result.json").read_text())
    assert result["success"] and result["made_by"] == "model" and "accuracy" in result["result"]
    assert (project / "data" / "outputs" / "T1" / "report.md").is_file() and (project / "data" / "outputs" / "T1" / "report.html").is_file()
    assert list((project / "data" / "outputs" / "T1" / "figures").iterdir())
    assert out.answer == "T1 is done: see its report."
    assert raw_digest(project) == before


def test_failed_model_code_falls_back_to_the_recipe(project: Path, script_file):
    spec = script_file([
        decide("execute_analysis"), {"steps": ["a", "b", "c"]},
        "result = undefined_name", "result = undefined_name + 1", "result = still_undefined",
        "Accuracy is reported.", "Done.",
    ])
    out = run_turn("run T1", project_dir=project, configuration=conf(spec, max_retries=2))
    assert [c["name"] for c in out.tool_calls] == ["summarize_data", "suggest_tasks", "plan_analysis", "execute_analysis"]
    assert "recipe code ran" in out.tool_results[-1]
    result = json.loads((project / "data" / "intermediate" / "T1_result.json").read_text())
    assert result["success"] and result["made_by"] == "recipe" and result["attempts"] == 4
    assert "accuracy" in result["result"] and "feature_importance" in result["result"]


def test_a_tool_error_becomes_guidance(project: Path, script_file):
    from dsagent.workflows.assistant import stages
    from dsagent.workflows.assistant.project import Project

    p = Project.at(project)
    stages.summarize(p, [f for f in p.raw_files() if f.name == "iris.csv"])  # a summary exists, not the one asked for
    spec = script_file([decide("view_summary"), decide("summarize_data"), "Now summarized."])
    out = run_turn("show me the summary of tips", project_dir=project, configuration=conf(spec))
    assert [(c["name"], c["args"]) for c in out.tool_calls] == [("view_summary", {"file_name": "tips.csv"}), ("summarize_data", {"file_names": ["tips.csv"]})]
    assert out.tool_results[0].startswith("Error: no up-to-date summary yet. Next step: summarize_data")
    from dsagent.llm.scripted import ScriptedChatModel
    from dsagent.workflows.assistant.runtime import chat_model

    model = chat_model(spec)
    assert isinstance(model, ScriptedChatModel)
    # the choice after the error was shown the error and its guidance
    assert "The last tool failed: Error: no up-to-date summary" in model.history[1][-1].content


def test_max_tool_iterations_ends_with_an_honest_message(project: Path, script_file):
    spec = script_file([{"tool": "summarize_data", "then": "suggest_tasks"}])
    out = run_turn("summarize and suggest", project_dir=project, configuration=conf(spec, max_tool_iterations=1))
    assert [c["name"] for c in out.tool_calls] == ["summarize_data"]
    assert out.limit_reached and "max_tool_iterations = 1" in out.answer


def test_after_a_look_no_second_look_follows(project: Path, script_file):
    spec = script_file([decide("list_data_files"), decide("view_tasks"), "Two files."])
    out = run_turn("what do I have?", project_dir=project, configuration=conf(spec))
    assert [c["name"] for c in out.tool_calls] == ["list_data_files"] and out.answer == "Two files."


def test_a_stage_that_fails_stops_the_queue(project: Path, script_file):
    (project / "data" / "raw" / "iris.csv").unlink()
    (project / "data" / "raw" / "tips.csv").unlink()
    spec = script_file([decide("suggest_tasks"), decide("none"), "There is no data yet."])
    out = run_turn("suggest some tasks", project_dir=project, configuration=conf(spec))
    assert [c["name"] for c in out.tool_calls] == ["suggest_tasks"]
    assert out.tool_results[0].startswith("Error: no data files")


def test_summaries_and_tasks_are_reused_until_the_source_changes(project: Path, script_file):
    spec = script_file([decide("suggest_tasks"), "ok", decide("summarize_data"), decide("none"), "ok", decide("summarize_data"), decide("none"), "ok"])
    c = conf(spec)
    out = run_turn("suggest tasks", project_dir=project, configuration=c)
    assert [t["name"] for t in out.tool_calls] == ["summarize_data", "suggest_tasks"]
    again = run_turn("summarize the data", project_dir=project, configuration=c)
    assert "2 unchanged, reused" in again.tool_results[0]
    raw = project / "data" / "raw" / "tips.csv"
    raw.write_text(raw.read_text() + "10.0,1.0,Male,No,Sun,Dinner,2\n")
    changed = run_turn("summarize the data", project_dir=project, configuration=c)
    assert "1 unchanged, reused" in changed.tool_results[0]
    from dsagent.workflows.assistant.project import Project

    assert Project.at(project).tasks() == []  # the task list was made from the old tips.csv


def test_a_second_tool_is_taken_when_the_request_asks_for_two_things(project: Path, script_file):
    spec = script_file([{"tool": "summarize_data", "then": "suggest_tasks"}, "Summarized, and here are tasks.",
                        {"tool": "summarize_data", "then": "suggest_tasks"}, decide("none"), "Summarized."])
    c = conf(spec)
    out = run_turn("Summarize the iris data, then suggest tasks", project_dir=project, configuration=c)
    assert [(t["name"], t["args"]) for t in out.tool_calls] == [("summarize_data", {"file_names": ["iris.csv"]}), ("suggest_tasks", {})]
    # no joint in the request: the model's second tool is not taken
    again = run_turn("Summarize everything", project_dir=project, configuration=c)
    assert [t["name"] for t in again.tool_calls] == ["summarize_data"]


def test_after_a_look_the_model_decides_whether_to_go_on(project: Path, script_file):
    spec = script_file([decide("list_data_files"), decide("none"), "Two files: iris.csv and tips.csv."])
    out = run_turn("What files do I have?", project_dir=project, configuration=conf(spec))
    assert [t["name"] for t in out.tool_calls] == ["list_data_files"] and out.answer.startswith("Two files")
