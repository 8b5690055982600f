"""Settings layering: defaults < dsagent.toml < env < flags; docs list every setting."""

from pathlib import Path

from dsagent.config import Settings, load_settings


def test_layering(tmp_path, monkeypatch):
    assert load_settings().model == "local"
    (tmp_path / "dsagent.toml").write_text('model = "scripted:a.json"\nsandbox_wall_s = 5\n')
    assert load_settings().model == "scripted:a.json"
    assert load_settings().sandbox_wall_s == 5
    monkeypatch.setenv("DSAGENT_MODEL", "openai:gpt-4.1-mini")
    assert load_settings().model == "openai:gpt-4.1-mini"
    assert load_settings(model="ollama:qwen").model == "ollama:qwen"
    assert load_settings(model=None).model == "openai:gpt-4.1-mini"


def test_home_moves_with_env(hermetic):
    settings = load_settings()
    assert settings.home == hermetic
    assert settings.db_url == f"sqlite:///{hermetic / 'runs.db'}"


def test_docs_list_every_setting():
    doc = (Path(__file__).parents[1] / "docs" / "settings.md").read_text()
    missing = [name for name in Settings.model_fields if f"`DSAGENT_{name.upper()}`" not in doc]
    assert not missing, f"docs/settings.md does not list: {missing}"
