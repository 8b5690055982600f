"""More than one prompt prefix kept for the embedded model: in memory and on disk.

llama.cpp holds the keys and values of one token sequence, its last call's. Every call of a run
opens with the same system message (the data profile, 600–1,500 tokens, ~10–25 s to read on two
cores), so within a run only the node's own instruction is read. But the next run — the next
question in a new ``dsagent ask`` process, or a question about another table in between — read
that profile again. This cache keeps the model's state after each call that read a new prefix,
keyed by its tokens, and before a call restores the saved state that shares the longest prefix
with the prompt when that beats what llama.cpp holds; llama.cpp then reads only the rest.

- **When it saves**: after a call that reused fewer than :data:`SAVE_BELOW` tokens of its prompt
  (it read a new prefix) from a prompt of at least :data:`MIN_PROMPT` tokens. Later calls of the
  same run, which reuse the prefix, save nothing.
- **What**: the sequence's KV state (``llama_state_seq_get_data``: ~28 KB a token for the 1.5B
  model, 30–60 MB an entry) and its tokens. Temperature-0 replies are the same with or without a
  restore (a test checks).
- **Where**: :data:`MEMORY_ENTRIES` in memory; on disk under ``<home>/cache/kv`` (``cache_dir``)
  up to ``max_disk_mb``, oldest first out, written to a fresh name and renamed (a crash leaves no
  half file that is read). Entries of another model file or llama-cpp-python version are ignored.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import struct
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

SAVE_BELOW = 256
"""A call that reused fewer prompt tokens than this read a new prefix: its state is saved."""
MIN_PROMPT = 384
"""Shorter prompts are cheap to read again (~5 s): not worth 10+ MB."""
MIN_GAIN = 128
"""Restore only when a saved prefix beats the live one by this many tokens (a restore costs ~0.1 s)."""
MEMORY_ENTRIES = 4
_SHARED_MEMORY: dict[str, list[Entry]] = {}
"""Entries in memory per model file: every context (lane) of a model reads and adds to the same list."""
_MEMORY_LOCK = threading.Lock()
_MAGIC = b"DSKV1\n"


@dataclass
class Entry:
    tokens: np.ndarray
    state: bytes | None
    """None for a disk entry not read yet (``path`` holds it)."""
    path: Path | None = None


def common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    n = min(len(a), len(b))
    if n == 0:
        return 0
    diff = np.flatnonzero(a[:n] != b[:n])
    return int(diff[0]) if len(diff) else n


class PrefixCache:
    def __init__(self, model_id: str, cache_dir: Path | None, max_disk_mb: int, memory: list[Entry] | None = None) -> None:
        self.model_id = model_id
        self.configure(cache_dir, max_disk_mb)
        self.memory: list[Entry] = [] if memory is None else memory
        """The entries in memory; the lanes of one model (llm/lanes.py) share one list."""
        self.restored = 0
        """Prompt tokens the last :meth:`restore` brought back (0: none)."""
        self.active = False
        """Set per call by the chat model that uses this cache (another may share the loaded model)."""

    def configure(self, cache_dir: Path | None, max_disk_mb: int) -> None:
        """Where entries go on disk (the loaded model is shared by every chat model of the process;
        each call uses its own settings' folder)."""
        self.dir = cache_dir if cache_dir is not None and max_disk_mb > 0 else None
        self.max_disk_bytes = max_disk_mb * 1024 * 1024

    # --- lookup ----------------------------------------------------------------------------
    def _candidates(self) -> list[Entry]:
        with _MEMORY_LOCK:
            memory = list(self.memory)
        seen = {e.path for e in memory if e.path is not None}
        disk = [e for e in self._disk_entries() if e.path not in seen]
        return [*memory, *disk]

    def restore(self, llm: Any, prompt: list[int]) -> int:
        """Load the saved state sharing the longest prefix with ``prompt`` if it beats llama.cpp's
        own (its last call); returns the tokens restored (0: nothing loaded)."""
        self.restored = 0
        tokens = np.asarray(prompt, dtype=np.int32)
        live = common_prefix(np.asarray(llm.input_ids[: llm.n_tokens], dtype=np.int32), tokens)
        best, best_len = None, live
        capacity = len(llm.input_ids)  # a state saved under a larger context window does not fit
        for entry in self._candidates():
            if len(entry.tokens) >= capacity:
                continue
            shared = common_prefix(entry.tokens, tokens)
            if shared > best_len:
                best, best_len = entry, shared
        if best is None or best_len < live + MIN_GAIN:
            return 0
        state = best.state if best.state is not None else self._read_state(best.path)
        if state is None or not _load(llm, best.tokens, state):
            return 0
        self._remember(Entry(best.tokens, state, best.path))
        if best.path is not None:
            try:
                os.utime(best.path)  # the disk's oldest-out order is by use
            except OSError:
                pass
        self.restored = best_len
        return best_len

    # --- saving ----------------------------------------------------------------------------
    def after_call(self, llm: Any, prompt_tokens: int, reused: int) -> bool:
        """Save the state if this call read a new prefix (see the module notes)."""
        if prompt_tokens < MIN_PROMPT or max(reused, self.restored) >= SAVE_BELOW:
            return False
        tokens = np.asarray(llm.input_ids[: llm.n_tokens], dtype=np.int32).copy()
        try:
            state = _save(llm)
        except Exception:  # noqa: BLE001 — a cache fault costs the saving, never the answer
            return False
        if state is None:
            return False
        entry = Entry(tokens, state)
        if self.dir is not None:
            entry.path = self._write(tokens, state)
        self._remember(entry)
        return True

    def _remember(self, entry: Entry) -> None:
        with _MEMORY_LOCK:  # in place: the list may be shared by lanes
            self.memory[:] = [entry, *(e for e in self.memory if not np.array_equal(e.tokens, entry.tokens))][:MEMORY_ENTRIES]

    # --- disk ------------------------------------------------------------------------------
    def _disk_entries(self) -> list[Entry]:
        if self.dir is None or not self.dir.is_dir():
            return []
        out = []
        for path in sorted(self.dir.glob("*.kv")):
            header = _read_header(path)
            if header is not None and header[0].get("model") == self.model_id:
                out.append(Entry(header[1], None, path))
        return out

    def _read_state(self, path: Path | None) -> bytes | None:
        """The saved state, or None for a file that is gone, cut short or not ours."""
        if path is None:
            return None
        try:
            with path.open("rb") as f:
                header = _parse_header(f)
                if header is None:
                    return None
                size = int(header[0]["state_bytes"])
                state = f.read(size)
            if len(state) != size or hashlib.sha256(state).hexdigest() != header[0].get("sha256"):
                return None
            return state
        except (OSError, ValueError, KeyError, TypeError, struct.error):
            return None

    def _write(self, tokens: np.ndarray, state: bytes) -> Path | None:
        assert self.dir is not None
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            name = hashlib.sha256(self.model_id.encode() + tokens.tobytes()).hexdigest()[:24] + ".kv"
            target = self.dir / name
            tmp = self.dir / f".{name}.{os.getpid()}.tmp"
            meta = json.dumps({"model": self.model_id, "tokens": int(len(tokens)), "state_bytes": len(state),
                               "sha256": hashlib.sha256(state).hexdigest()}).encode()
            with tmp.open("wb") as f:
                f.write(_MAGIC + struct.pack("<I", len(meta)) + meta + tokens.astype("<i4").tobytes() + state)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
            self._trim()
            return target if target.exists() else None  # an entry over the whole budget is not kept
        except OSError:  # a full or read-only disk costs the cache, never the answer
            return None

    def _trim(self) -> None:
        """Keep the newest-used entries within the budget; drop a crashed writer's temp files."""
        assert self.dir is not None
        for tmp in self.dir.glob(".*.tmp"):
            if time.time() - tmp.stat().st_mtime > 3600:
                tmp.unlink(missing_ok=True)
        files = sorted(self.dir.glob("*.kv"), key=lambda p: p.stat().st_mtime, reverse=True)
        total = 0
        for path in files:
            total += path.stat().st_size
            if total > self.max_disk_bytes:
                path.unlink(missing_ok=True)


def _parse_header(f: Any) -> tuple[dict, np.ndarray] | None:
    if f.read(len(_MAGIC)) != _MAGIC:
        return None
    (size,) = struct.unpack("<I", f.read(4))
    meta = json.loads(f.read(size))
    raw = f.read(4 * int(meta["tokens"]))
    if len(raw) != 4 * int(meta["tokens"]):
        return None
    return meta, np.frombuffer(raw, dtype="<i4").astype(np.int32)


def _read_header(path: Path) -> tuple[dict, np.ndarray] | None:
    try:
        with path.open("rb") as f:
            return _parse_header(f)
    except (OSError, ValueError, KeyError, TypeError, struct.error):
        return None


def _save(llm: Any) -> bytes | None:
    from llama_cpp import llama_cpp

    ctx = llm._ctx.ctx
    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buf = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_seq_get_data(ctx, buf, size, 0)
    return ctypes.string_at(buf, written) if written else None


def _load(llm: Any, tokens: np.ndarray, state: bytes) -> bool:
    """Replace the model's KV state with a saved one; llama-cpp-python's bookkeeping follows."""
    from llama_cpp import llama_cpp

    llm._ctx.kv_cache_clear()
    llm.n_tokens = 0  # until the state is in, nothing of the old one is trusted
    buf = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    if not llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, buf, len(state), 0):
        llm._ctx.kv_cache_clear()  # the next call reads its prompt whole
        return False
    n = len(tokens)
    llm.input_ids[:n] = tokens
    llm.n_tokens = n
    llm._requires_eval = True  # the logits are not restored: the next decode refreshes them
    return True


def model_id(path: Path) -> str:
    """What a saved state is valid for: the model file (name, size, mtime) and llama-cpp-python."""
    import llama_cpp

    st = path.stat()
    return f"{path.name}:{st.st_size}:{int(st.st_mtime)}:{llama_cpp.__version__}"



def install(llm: Any, model_path: Path, cache_dir: Path | None, max_disk_mb: int) -> PrefixCache:
    """The model's prefix cache, made once per loaded model: its ``generate`` (which every
    completion calls with the whole prompt's tokens) first restores the best saved prefix."""
    cache = getattr(llm, "_dsagent_prefix_cache", None)
    if cache is not None:
        return cache
    key = model_id(model_path)
    with _MEMORY_LOCK:
        memory = _SHARED_MEMORY.setdefault(key, [])
    cache = PrefixCache(key, cache_dir, max_disk_mb, memory)
    original = llm.generate

    def generate(tokens: Any, *args: Any, **kwargs: Any) -> Any:
        if cache.active:
            try:
                cache.restore(llm, list(tokens))
            except Exception:  # noqa: BLE001 — a cache fault costs the saving, never the answer
                cache.restored = 0
                llm._ctx.kv_cache_clear()
                llm.n_tokens = 0
        return original(tokens, *args, **kwargs)

    llm.generate = generate
    llm._dsagent_prefix_cache = cache
    return cache
