"""One settings object, layered: defaults < ``dsagent.toml`` < ``DSAGENT_*`` env < CLI flags.

The config file is ``./dsagent.toml`` if it exists, else ``$DSAGENT_HOME/config.toml``.
Every field has a description; ``docs/settings.md`` lists them all (a test checks that).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

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
    decide_by_code: bool = Field(True, description="Decide by code, without a model call, where code knows the answer. quick: evaluate is skipped for a single-value answer that fits the question. robust: nodes 0, 2 and 3 answer by code (the question names a column: data work; every required column exists and none is mostly empty: the profile, and alignment with missing values as caveats); otherwise, and on every loop that asks to look again, the seed's model call (off: always the model).")
    operations: bool = Field(False, description="quick, robust (node 4's first code) and react (the first code_exec step): the first code of a question over one table, or over a database's tables, is composed from a tested analysis operation the model chooses (dsagent.ops: its columns typed by the table; over a database one SQL query that follows the joins) when one fits; free code otherwise, and after a composed code fails (off: the model writes every code).")
    check_operations: bool = Field(False, description="verify (quick, react) and robust_cross_check, with operations off: the first independent check of an answer its model wrote freely is an analysis operation the model chooses (dsagent.ops), compiled and run apart, when one fits: a route that shares none of the answer's code; free code when none fits or it fails (off: every check is free code).")
    verify: bool = Field(True, description="quick and react: an answer with a result value is compared with an independent computation of the question (a code from the question alone, written on the model's spare lane while the run writes its own); a second check, sampled warm, follows (on the same lane, while the run explains): the answer is verified when the first agrees and the warm one does not differ, or when the warm one agrees (a check that copies the answer's own code is no vote); when the first differs, 2 of 3 decide (two checks that agree replace the answer); otherwise the answer says it is not sure. robust's node 5 checks give its mark (robust_cross_check). Off: no extra model calls, every answer 'not checked'.")
    robust_cross_check: bool = Field(True, description="robust: node 5 compares node 4's result with independent codes for the question (a second and, if needed, a third break ties), decides by code when two agree and uses the checks' result when they outvote node 4; when node 4 failed, their agreed result, else the first check's for the model to judge (off: the seed's model-only evaluation).")
    react_max_loops: int = Field(5, ge=1, le=20, description="react: reason → code_exec loops per user message; then the report shows the intermediate results (seed 001: 5).")
    clean_max_retries: int = Field(3, ge=0, le=10, description="clean: fix attempts (fix_data_cleaner_code) after a failed run or guard before the report says the error (seed 003's max_retries).")
    clean_max_drop_share: float = Field(0.02, ge=0, le=1, description="clean: share of the rows a cleaner may drop without a step that announces it; more is sent back to fixing (and a step that drops more is flagged in review).")
    clean_sample_rows: int = Field(100_000, ge=100, description="clean, a file above big_file_mb: rows of the random sample the findings and the review's preview come from (rows and missing values per column as read are counted exactly).")
    clean_chunk_rows: int = Field(100_000, ge=1, description="clean, a file above big_file_mb: rows per chunk the cleaner runs on in the sandbox (memory grows with it; figures of the whole table are computed once by DuckDB).")
    clean_model_writes_cleaner: bool = Field(False, description="clean: seed 003's own path for strong hosted models: the model writes the whole data_cleaner(data_raw) from the reviewed steps (shown in review, run in the sandbox, checked like any model code); off: the function is assembled from vetted snippets and the model writes only custom_steps.")
    assistant_max_tool_iterations: int = Field(10, ge=1, le=100, description="assistant: tool calls per user message; at the limit the agent stops and says what it did (seed 004's max_tool_iterations).")
    assistant_max_retries: int = Field(2, ge=0, le=10, description="assistant: retries of a failed model call, and extra code attempts of stage 4 (seed 004's max_retries).")
    assistant_max_tokens: int = Field(256, ge=16, description="assistant: longest answer the agent writes to the user, tokens.")
    sandbox_wall_s: float = Field(180.0, gt=0, description="Sandbox: wall-clock limit per execution, seconds.")
    sandbox_memory_mb: int = Field(1024, ge=64, description="Sandbox: memory limit of the worker (resident, above its start), MB.")
    sandbox_output_kb: int = Field(256, ge=1, description="Sandbox: limit on printed output per execution, KB.")
    sandbox_file_mb: int = Field(256, ge=1, description="Sandbox: largest file the code may write, MB.")
    sandbox_workspace_mb: int = Field(1024, ge=1, description="Sandbox: total size of the files the code may keep in its workspace folder, MB.")
    big_file_mb: float = Field(200.0, ge=0, description="A CSV, Parquet or JSON file larger than this (MB) is not loaded into pandas, in dsagent or in the sandbox: the sandbox's DuckDB scans it where it lies (code queries it with `sql()`), and its profile comes from DuckDB (0: every such file).")
    duckdb_memory_mb: int = Field(0, ge=0, description="Sandbox: memory limit of DuckDB in the worker, MB (0: 40% of sandbox_memory_mb); above it DuckDB spills to the workspace.")
    duckdb_threads: int = Field(0, ge=0, description="Sandbox: DuckDB threads in the worker and for the big-file profile (0 = all cores).")
    duckdb_max_rows: int = Field(1_000_000, ge=1, description="Sandbox: most rows one `sql()` call over the data files may bring into pandas; a larger result is refused with the advice to aggregate in SQL first (database sources: sql_max_rows).")
    llm_timeout_s: float = Field(120.0, gt=0, description="Remote model provider: seconds one try of a call may take before it is given up (and retried).")
    llm_total_timeout_s: float = Field(180.0, gt=0, description="Remote model provider: the most one model call may take, all tries and back-off waits together; then the run ends with a provider error (exit 3).")
    llm_max_attempts: int = Field(3, ge=1, le=10, description="Remote model provider: tries of one call (a refused connection, timeout, HTTP 5xx or 429, a malformed or empty reply is retried; 401/403/404/400 are not).")
    web_token: str | None = Field(None, description="`dsagent web`: access token every browser session must give (the page asks, or `?token=` in the link); required when --host is not a loopback address.")
    history_max_tokens: int = Field(2000, ge=0, description="Chat history in a prompt (react's chat, the web app, a follow-up question, the assistant on a hosted model): the latest exchanges that fit these tokens are sent, the oldest are left out and the prompt and the progress say so; the system prompt and the current request are always kept.")
    local_n_ctx: int = Field(8192, ge=512, description="Embedded model: context window in tokens.")
    local_threads: int = Field(0, ge=0, description="Embedded model: CPU threads (0 = all cores).")
    local_lanes: int = Field(2, ge=1, le=8, description="Embedded model: contexts that run independent calls side by side (the robust workflow's cross-check beside its code; concurrent sessions). One thread generates as fast as two, so two lanes give about twice the throughput; each lane costs about 300 MB (1 = calls take turns).")
    local_prefix_cache: bool = Field(True, description="Embedded model: keep the model's state after a prompt prefix it read (the data profile), in memory (4) and on disk, and restore the longest match before a call, so the next question on the same data does not read the profile again.")
    local_prefix_cache_mb: int = Field(1024, ge=0, description="Embedded model: disk space for saved prefixes under <home>/cache/kv, oldest first out (30-60 MB each; 0 = memory only).")
    temperature: float = Field(0.0, ge=0, le=2, description="Sampling temperature for every model call.")
    data_sharing: Literal["full", "sample", "schema"] = Field("full", description="What of the data the model is shown: full (profile with statistics and example values; printed results as they are), sample (the profile's statistics and example values; printed results cut to 5 rows), schema (names, types, missing and unique counts only; no cell value in any prompt, printed cell values masked).")
    notes_file: Path | None = Field(None, description="A column-notes YAML (`table:` and `columns:` with descriptions and units) for every dataset, on top of `NAME.notes.yaml` beside each file (`--notes FILE`).")
    allowed_sources: list[str] = Field(default_factory=list, description="MCP server and LangGraph server: database URLs (or env:NAME) a client may name as a source, written exactly as the client will (JSON list; default none); SQLite and DuckDB files follow allowed_roots like other files.")
    allowed_models: list[str] = Field(default_factory=list, description="Doors (LangGraph server, MCP server, web app): model specs a client may choose besides `model`, written exactly as the client will (JSON list; default none: the client gets `model`). An `openai-compatible:` spec counts with its base URL; a `scripted:` spec is never taken from a client.")
    allowed_roots: list[Path] = Field(default_factory=lambda: [Path(".")], description="MCP server, LangGraph server and the assistant served by it: folders whose files (and project folders) a client may name (JSON list; default the current directory); other paths are refused.")
    sql_max_rows: int = Field(10_000, ge=1, le=1_000_000, description="Database sources and Spark: most rows one `sql()` call brings into the sandbox; a result cut to it says so (aggregate in the database instead).")
    sql_max_mb: int = Field(256, ge=1, le=2048, description="Database sources and Spark: most megabytes one `sql()` result may take in dsagent's own process (fetched in batches; a result over it is cut and says so, a single row over it refused: aggregate in the database instead). A DuckDB file's working memory is held to it too.")
    engine: Literal["local", "spark"] = Field("local", description="Where `sql()` runs for data files: local (pandas and DuckDB in the sandbox), or spark (Apache Spark at `spark_url`, driven from dsagent's process; the files become Spark views). Database URLs always run in their database.")
    spark_url: str = Field("local[2]", description="engine = spark: a Spark master URL (local[2], spark://host:7077, yarn) or a Spark Connect URL (sc://host:15002).")
    price_input_per_mtok: float = Field(0.0, ge=0, description="Hosted providers: price of a million prompt tokens (USD) for the cost line of an answer (0: no cost shown).")
    price_output_per_mtok: float = Field(0.0, ge=0, description="Hosted providers: price of a million completion tokens (USD) for the cost line of an answer.")

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
