"""The long-lived doors load a model once per spec; scripted models replay per Session."""

from __future__ import annotations

import dsagent.llm
from dsagent.config import load_settings
from dsagent.doors import models


def test_one_model_per_spec(monkeypatch):
    built = []
    monkeypatch.setattr(models, "_models", {})
    monkeypatch.setattr(dsagent.llm, "get_chat_model", lambda spec, settings: built.append(spec) or object())
    with models.shared_model(load_settings(model="ollama:qwen")) as first:
        pass
    with models.shared_model(load_settings(model="ollama:qwen")) as again:
        assert again is first
    with models.shared_model(load_settings(model="ollama:other")) as other:
        assert other is not first
    with models.shared_model(load_settings(model="scripted:x.json")) as scripted:
        assert scripted is None
    assert built == ["ollama:qwen", "ollama:other"]
