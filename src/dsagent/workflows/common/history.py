"""A cap on the chat history a prompt carries: the latest exchanges that fit a token budget.

A long conversation (react's chat, the web app's, the assistant's thread on a hosted model) would
otherwise push every prompt past the model's context. The system prompt is not part of the
history and is always kept; the current request (the last user message and what followed it) is
always kept; earlier exchanges are added from the newest back while they fit
``history_max_tokens``. Whole exchanges are dropped (a tool call never loses its result), and the
prompt says so: the first kept message starts with a note of how many were left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from dsagent.data.tokens import count_tokens

MESSAGE_OVERHEAD = 4
"""Tokens a chat template adds around each message (role markers)."""
NOTE = "(Note: the {n} oldest exchange{s} of this conversation are left out of this prompt to keep it within the model's context.)"


def _exchanges(messages: Sequence[BaseMessage]) -> list[list[BaseMessage]]:
    """The messages cut before each user message: one exchange each (and any lead-in before the first)."""
    groups: list[list[BaseMessage]] = []
    for m in messages:
        if isinstance(m, HumanMessage) or not groups:
            groups.append([])
        groups[-1].append(m)
    return groups


def _tokens(group: Sequence[BaseMessage]) -> int:
    return sum(count_tokens(str(m.content)) + MESSAGE_OVERHEAD for m in group)


def cap_history(messages: Sequence[BaseMessage], budget: int, keep_last: bool = False) -> tuple[list[BaseMessage], int]:
    """(the messages to send, how many exchanges were left out). ``keep_last``: the last exchange
    is the current request (the assistant's thread) and is kept whatever its size."""
    groups = _exchanges(list(messages))
    current = [groups.pop()] if keep_last and groups else []
    earlier: list[list[BaseMessage]] = []
    used = 0
    while groups and used + _tokens(groups[-1]) <= budget:
        used += _tokens(groups[-1])
        earlier.insert(0, groups.pop())
    out = [m for group in earlier + current for m in group]
    dropped = len(groups)
    if dropped:
        note = NOTE.format(n=dropped, s="" if dropped == 1 else "s")
        if out and isinstance(out[0], HumanMessage):
            out[0] = HumanMessage(content=f"{note}\n{out[0].content}")
        else:
            out.insert(0, HumanMessage(content=note))
    return out, dropped


def without_unanswered_calls(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The messages less the tool calls that never got a result (a turn killed in its tool, left in
    the thread): a hosted provider refuses a prompt with a tool call and no result."""
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    out: list[BaseMessage] = []
    for m in messages:
        if isinstance(m, AIMessage) and m.tool_calls and not all(c.get("id") in answered for c in m.tool_calls):
            calls = [c for c in m.tool_calls if c.get("id") in answered]
            if not calls and not m.content:
                continue
            m = AIMessage(content=m.content, tool_calls=calls)
        out.append(m)
    return out
