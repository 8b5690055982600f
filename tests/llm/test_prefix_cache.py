"""The embedded model's prefix cache (llm/prefix_cache.py): saved prompt prefixes, in memory and
on disk. The file format and the disk budget without a model; restoring with the real model."""

from __future__ import annotations

import numpy as np
import pytest

from dsagent.llm.prefix_cache import PrefixCache, common_prefix


def test_common_prefix():
    a = np.array([1, 2, 3, 4], dtype=np.int32)
    assert common_prefix(a, np.array([1, 2, 9], dtype=np.int32)) == 2
    assert common_prefix(a, a[:2]) == 2 and common_prefix(a, np.array([], dtype=np.int32)) == 0


def test_disk_entries_round_trip_and_ignore_another_model_or_a_broken_file(tmp_path):
    cache = PrefixCache("model-a", tmp_path, max_disk_mb=10)
    tokens = np.arange(500, dtype=np.int32)
    path = cache._write(tokens, b"state-bytes")
    [entry] = cache._disk_entries()
    assert entry.path == path and np.array_equal(entry.tokens, tokens) and entry.state is None
    assert cache._read_state(path) == b"state-bytes"
    assert PrefixCache("model-b", tmp_path, 10)._disk_entries() == []  # another model file or version
    (tmp_path / "broken.kv").write_bytes(b"DSKV1\n\xff\xff")
    (tmp_path / "other.kv").write_bytes(b"not a cache file")
    assert len(cache._disk_entries()) == 1
    assert not list(tmp_path.glob(".*.tmp"))  # written to a fresh name, then renamed


def test_a_damaged_state_is_not_read_and_an_entry_over_the_budget_is_not_kept(tmp_path):
    cache = PrefixCache("m", tmp_path, max_disk_mb=1)
    path = cache._write(np.arange(10, dtype=np.int32), b"0123456789")
    data = path.read_bytes()
    path.write_bytes(data[:-3] + b"XYZ")  # same length, other bytes: the checksum says no
    assert cache._read_state(path) is None
    path.write_bytes(data[:-3])  # cut short
    assert cache._read_state(path) is None
    assert cache._write(np.arange(10, dtype=np.int32), b"x" * (2 * 1024 * 1024)) is None


def test_the_disk_budget_drops_the_oldest(tmp_path):
    cache = PrefixCache("m", tmp_path, max_disk_mb=1)
    big = b"x" * 400_000
    for i in range(4):
        cache._write(np.full(10, i, dtype=np.int32), big)
    kept = sorted(tmp_path.glob("*.kv"))
    assert len(kept) == 2 and sum(p.stat().st_size for p in kept) <= 1024 * 1024
    assert PrefixCache("m", None, 100)._disk_entries() == []  # memory only: no folder


@pytest.mark.real_model
def test_a_saved_prefix_is_restored_after_another_prompt_and_from_disk(local_spec, hermetic):
    """A long system message read once is not read again: after an unrelated prompt replaced
    llama.cpp's cache, and from disk in a fresh cache (a new process); the reply is the same."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from dsagent.llm.registry import get_chat_model

    model = get_chat_model(local_spec)
    system = SystemMessage("You answer in one word. " + "".join(f"Fact {i}: item {i} weighs {i * 7} grams. " for i in range(60)))
    other = [SystemMessage("Reply with a number."), HumanMessage("Two plus two?")]

    def cached(reply):  # noqa: ANN001, ANN202
        return reply.usage_metadata["input_token_details"]["cache_read"]

    assert not model.holds_prefix([system, HumanMessage("Name a colour.")])
    first = model.invoke([system, HumanMessage("Name a colour.")])
    assert model.holds_prefix([system, HumanMessage("Any other task")]) and not model.holds_prefix(other)
    assert first.usage_metadata["input_tokens"] > 600 and cached(first) < 10
    assert list((hermetic / "cache" / "kv").glob("*.kv")), "the new prefix was saved to disk"
    model.invoke(other)  # llama.cpp now holds another prompt
    fruit = model.invoke([system, HumanMessage("Name a fruit.")])
    assert cached(fruit) > 550  # restored from memory, not read again

    # the same prompt read whole, with the cache off: the same reply
    plain = model.model_copy(update={"prefix_cache": False})
    plain.invoke(other)
    full = plain.invoke([system, HumanMessage("Name a fruit.")])
    assert cached(full) < 10 and full.content == fruit.content

    # a fresh cache (as in a new process) finds the prefix on disk
    cache = model.llama._dsagent_prefix_cache
    cache.memory.clear()
    model.invoke(other)
    animal = model.invoke([system, HumanMessage("Name an animal.")])
    assert cached(animal) > 550
