"""One settings object, layered: defaults < ``dsagent.toml`` < ``DSAGENT_*`` env < CLI flags.

The config file is ``./dsagent.toml`` if it exists, else ``$DSAGENT_HOME/config.toml``.
Every field has a description; ``docs/settings.md`` lists them all (a test checks that).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import Field
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


def default_home() -> Path:
    return Path(os.environ.get("DSAGENT_HOME") or Path.home() / ".dsagent").expanduser()


def config_file_path() -> Path:
    local = Path("dsagent.toml")
    return local if local.exists() else default_home() / "config.toml"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DSAGENT_", extra="ignore")

    home: Path = Field(default_factory=default_home, description="Home directory: run log, assembled model, built caches.")
    model: str = Field("local", description="Chat model spec `provider:model` (local, local:<path.gguf>, openai:…, anthropic:…, ollama:…, openai-compatible:<model>@<url>, scripted:<file>).")
    database_url: str | None = Field(None, description="SQLAlchemy URL of the run log; default sqlite:///<home>/runs.db.")
    workspace_root: Path = Field(Path("workspace"), description="Where each session's workspace `<yyyymmddhhmmss>/` is created.")
    workflow: str = Field("quick", description="Default workflow for `dsagent ask`: quick, robust or react.")
    max_code_attempts: int = Field(3, ge=1, le=10, description="quick: code attempts before the error node (seed 000: 3).")
    robust_max_alignment_iterations: int = Field(2, ge=1, le=10, description="robust: alignment checks per round before node 1A explains the limitation (seed 002: 2).")
    robust_max_code_attempts: int = Field(2, ge=1, le=10, description="robust: code attempts per round before node 5 evaluates the failure (seed 002: 2).")
    robust_max_remediations: int = Field(3, ge=1, le=10, description="robust: remediation plans in a run; the one that reaches it hands over to node 6 (seed 002: 3).")
    robust_cross_check: bool = Field(True, description="robust: node 5 compares node 4's result with independent codes for the question (a second and, if needed, a third break ties), decides by code when two agree and uses the checks' result when they outvote node 4; when node 4 failed, their agreed result, else the first check's for the model to judge (off: the seed's model-only evaluation).")
    react_max_loops: int = Field(5, ge=1, le=20, description="react: reason → code_exec loops per user message; then the report shows the intermediate results (seed 001: 5).")
    assistant_max_tool_iterations: int = Field(10, ge=1, le=100, description="assistant: tool calls per user message; at the limit the agent stops and says what it did (seed 004's max_tool_iterations).")
    assistant_max_retries: int = Field(2, ge=0, le=10, description="assistant: retries of a failed model call, and extra code attempts of stage 4 (seed 004's max_retries).")
    assistant_max_tokens: int = Field(256, ge=16, description="assistant: longest answer the agent writes to the user, tokens.")
    sandbox_wall_s: float = Field(180.0, gt=0, description="Sandbox: wall-clock limit per execution, seconds.")
    sandbox_memory_mb: int = Field(1024, ge=64, description="Sandbox: memory limit of the worker (resident, above its start), MB.")
    sandbox_output_kb: int = Field(256, ge=1, description="Sandbox: limit on printed output per execution, KB.")
    sandbox_file_mb: int = Field(256, ge=1, description="Sandbox: largest file the code may write, MB.")
    llm_timeout_s: float = Field(300.0, gt=0, description="Timeout of one call to a remote model provider, seconds.")
    local_n_ctx: int = Field(8192, ge=512, description="Embedded model: context window in tokens.")
    local_threads: int = Field(0, ge=0, description="Embedded model: CPU threads (0 = all cores).")
    temperature: float = Field(0.0, ge=0, le=2, description="Sampling temperature for every model call.")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=config_file_path())
        return (init_settings, env_settings, toml)

    @property
    def db_url(self) -> str:
        return self.database_url or f"sqlite:///{self.home / 'runs.db'}"

    @property
    def models_dir(self) -> Path:
        return self.home / "models"


def load_settings(**overrides: Any) -> Settings:
    """Settings with CLI-flag overrides on top; ``None`` overrides are ignored."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
