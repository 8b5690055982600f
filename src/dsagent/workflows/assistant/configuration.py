"""Seed 004's ``Configuration``, passed per run in ``RunnableConfig["configurable"]``.

API keys never live here: providers read them from the environment (``dsagent.llm.registry``).
Where a door serves clients, the model a run names is held to the operator's ``allowed_models``
(:mod:`dsagent.access`).
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, Field

from dsagent.access import client_policy


class AgentLLM(BaseModel):
    model: Optional[str] = Field(None, description="Model spec `provider:model` (default: the `model` setting).")
    temperature: float = Field(0.0, ge=0, le=2, description="Sampling temperature of the agent's calls.")
    max_tokens: int = Field(256, ge=16, description="Longest answer the agent writes to the user, tokens.")


class Configuration(BaseModel):
    agent_llm: AgentLLM = Field(default_factory=AgentLLM)
    max_tool_iterations: int = Field(10, ge=1, le=100, description="Tool calls per user message before the agent stops and says so.")
    max_retries: int = Field(2, ge=0, le=10, description="Retries of a failed model call, and extra code attempts in stage 4.")
    verbose: bool = Field(False, description="Log each decision of the agent to stderr.")
    stream_output: bool = Field(True, description="Stream the answer's tokens (the CLI shows them as they come).")

    @classmethod
    def defaults(cls) -> "Configuration":
        """The configuration the settings give (``assistant_*`` settings, DSAGENT_* env)."""
        from dsagent.config import load_settings

        s = load_settings()
        return cls(
            agent_llm=AgentLLM(model=s.model, temperature=s.temperature, max_tokens=s.assistant_max_tokens),
            max_tool_iterations=s.assistant_max_tool_iterations, max_retries=s.assistant_max_retries,
        )

    @classmethod
    def from_runnable_config(cls, config: Optional[dict[str, Any]] = None) -> "Configuration":
        """The run's configuration: the settings' defaults, overridden by ``configurable`` keys."""
        configurable = dict((config or {}).get("configurable") or {})
        base = cls.defaults().model_dump()
        for key in cls.model_fields:
            if key in configurable and configurable[key] is not None:
                value = configurable[key]
                if key == "agent_llm":
                    value = {**base["agent_llm"], **(value.model_dump() if isinstance(value, BaseModel) else dict(value))}
                base[key] = value
        conf = cls.model_validate(base)
        policy = client_policy()
        if policy is not None:  # a served door: the client's model choice is held to the operator's list
            conf.agent_llm.model = policy.model(conf.agent_llm.model)
        return conf
