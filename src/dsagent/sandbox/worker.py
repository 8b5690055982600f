"""The worker's main loop: ``python -m dsagent.sandbox.worker <config.json>``.

Order matters: network namespace first (it needs root's capabilities), then pandas and the
datasets, then confinement, then the first cell. The heavy plotting and modelling libraries are
lazy names that a background thread imports after the worker is ready, so a cold start costs
pandas only while ``plt``/``sm``/``sklearn`` still behave like the modules they stand for.
A run may carry an import allow-list (seed 001's libraries); charts fall back to a Japanese font.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.abc
import importlib.util
import io
import json
import os
import pickle
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

from dsagent.sandbox import aliases, artifacts, cell_names, confine, duck, loaded_files, protocol, sql_bridge

# aliases.BOUND's order, most used first: a cell that needs plt soon after a restart waits the least.
_WARMUP_ORDER = tuple(dict.fromkeys(module for alias, module in aliases.BOUND.items() if alias not in aliases.EAGER))


_JAPANESE_FONT = "IPAexGothic"


class _ImportGuard:
    """``__import__`` for one run with an allow-list: only the cell's own import statements go
    through it (libraries keep theirs), so pandas may still load what it needs internally."""

    def __init__(self, allowed: list[str]) -> None:
        self.allowed = set(allowed)
        self.listed = ", ".join(allowed)

    def __call__(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and name.partition(".")[0] not in self.allowed:
            raise ImportError(f"import of {name!r} is not allowed in this workflow; allowed modules: {self.listed}")
        return builtins.__import__(name, globals, locals, fromlist, level)


def _guarded_run(namespace: dict[str, Any], allowed: list[str]) -> dict[str, Any]:
    """Switch ``namespace`` to the allow-list; returns what :func:`_unguard` needs to switch back."""
    # A run with an import allow-list does not see the bound names whose module it does not allow
    # (they come back after the run).
    hidden = {alias: namespace.pop(alias) for alias, module in aliases.BOUND.items()
              if module.partition(".")[0] not in allowed and alias in namespace}
    namespace["__builtins__"] = {**vars(builtins), "__import__": _ImportGuard(allowed)}
    return hidden


def _unguard(namespace: dict[str, Any], hidden: dict[str, Any]) -> None:
    namespace["__builtins__"] = builtins
    for alias, value in hidden.items():
        namespace.setdefault(alias, value)  # unless the cell bound the name itself


def _use_japanese_font(font_manager: types.ModuleType) -> None:
    """Register matplotlib-fontja's IPAex Gothic and make every font fall back to it, so Japanese
    titles and labels render (Latin text keeps the default font). The fallback is also added where
    fonts are looked up, because styles such as ``sns.set_theme()`` rewrite ``font.sans-serif``."""
    spec = importlib.util.find_spec("matplotlib_fontja")  # not imported: it would replace the default font
    if spec is None or not spec.submodule_search_locations:
        return
    path = str(Path(list(spec.submodule_search_locations)[0]) / "fonts" / "ipaexg.ttf")
    if not Path(path).exists():
        return
    font_manager.fontManager.addfont(path)
    rc = sys.modules["matplotlib"].rcParams
    rc["font.sans-serif"] = [*[f for f in rc["font.sans-serif"] if f != _JAPANESE_FONT], _JAPANESE_FONT]
    find = getattr(font_manager.fontManager, "_find_fonts_by_props", None)
    if find is None:  # a matplotlib without it keeps the rcParams fallback only
        return

    def with_japanese_fallback(prop: Any, *args: Any, **kwargs: Any) -> list[str]:
        paths = find(prop, *args, **kwargs)
        return paths if path in paths else [*paths, path]

    font_manager.fontManager._find_fonts_by_props = with_japanese_fallback


class _FontSetup(importlib.abc.MetaPathFinder):
    """Runs :func:`_use_japanese_font` right after ``matplotlib.font_manager`` is imported, by
    whoever imports it first (the warm-up thread, a cell, seaborn), and not before: a cell that
    never plots does not pay for matplotlib."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != "matplotlib.font_manager":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_setup(module: types.ModuleType) -> None:
            exec_module(module)
            try:
                _use_japanese_font(module)
            except Exception as exc:  # noqa: BLE001 - charts still work, Japanese shows as boxes
                print(f"dsagent: Japanese font setup failed: {exc}", file=sys.__stderr__)

        spec.loader.exec_module = exec_then_setup  # type: ignore[method-assign]
        return spec


class OutputLimitExceeded(BaseException):
    """A BaseException so that a cell's ``except Exception`` cannot swallow the limit."""


class _Capture(io.TextIOBase):
    """sys.stdout and sys.stderr of a cell, refusing to grow past the output limit."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, limit_bytes: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit_bytes
        self.exceeded = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.exceeded:
            raise OutputLimitExceeded
        size = len(text.encode("utf-8", "replace"))
        if self.size + size > self.limit:
            self.parts.append(text[: max(self.limit - self.size, 0)])
            self.size, self.exceeded = self.limit, True
            raise OutputLimitExceeded
        self.parts.append(text)
        self.size += size
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


class _LazyModule(types.ModuleType):
    """Stands for a module until first use, then puts the real one into the namespace."""

    def __init__(self, alias: str, target: str, namespace: dict[str, Any]) -> None:
        super().__init__(target)
        self.__dict__["_lazy"] = (alias, target, namespace)

    def _load(self) -> types.ModuleType:
        alias, target, namespace = self.__dict__["_lazy"]
        module = importlib.import_module(target)
        if namespace.get(alias) is self:
            namespace[alias] = module
        return module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._load(), name)

    def __dir__(self) -> list[str]:
        return dir(self._load())


def _make_subplots(*args: Any, **kwargs: Any) -> Any:
    from plotly.subplots import make_subplots

    return make_subplots(*args, **kwargs)


def _rss_mb() -> float:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


class _Warmup(threading.Thread):
    """Imports the lazy libraries in the idle time after ready; counts the memory they take."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        super().__init__(name="dsagent-warmup", daemon=True)
        self.namespace = namespace
        self.library_mb = 0.0
        self.done = threading.Event()
        self.importing = False
        # Cleared while a cell runs: the memory a cell may use is measured above the libraries
        # loaded so far, so no new import may start under it.
        self.may_import = threading.Event()
        self.may_import.set()

    def run(self) -> None:
        try:
            for target in _WARMUP_ORDER:
                self.may_import.wait()
                if target in sys.modules:
                    continue
                self.importing = True
                before = _rss_mb()
                try:
                    importlib.import_module(target)
                except Exception:  # noqa: BLE001 - a missing optional library fails in the cell instead
                    continue
                finally:
                    self.importing = False
                self.library_mb += max(_rss_mb() - before, 0.0)
            for alias, target in aliases.LAZY.items():
                if isinstance(self.namespace.get(alias), _LazyModule) and target in sys.modules:
                    self.namespace[alias] = sys.modules[target]
            if self.namespace.get("make_subplots") is _make_subplots and "plotly.subplots" in sys.modules:
                self.namespace["make_subplots"] = sys.modules["plotly.subplots"].make_subplots
        finally:
            self.done.set()


def _load_datasets(data_dir: Path, sql_options: dict[str, Any], workspace: Path) -> tuple[dict[str, Any], duck.Tables]:
    """The pandas datasets and the DuckDB tables over them and over the big files (see duck.py)."""
    import pandas as pd

    manifest = json.loads((data_dir / "datasets.json").read_text())
    datasets, scans = {}, {}
    for entry in manifest:
        if entry.get("scan"):  # a file too big for pandas: DuckDB reads it where it lies
            scans[entry["id"]] = entry["scan"]
            continue
        with open(data_dir / entry["file"], "rb") as fh:
            datasets[entry["id"]] = pickle.load(fh)
    tables = duck.Tables(datasets, scans, sql_options, workspace / ".tmp" / "duckdb")
    if scans:
        import duckdb  # noqa: F401 - loaded with the datasets; its connection (and threads) only once confined
    loaded_files.install(pd, {**datasets, **tables.big}, manifest)
    return {**datasets, **tables.big}, tables


def _build_namespace(datasets: dict[str, Any], tables: duck.Tables) -> dict[str, Any]:
    import numpy as np
    import pandas as pd

    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    namespace.update(pd=pd, np=np, datasets=datasets, make_subplots=_make_subplots, sql=tables.sql)
    for alias, target in aliases.LAZY.items():
        namespace[alias] = _LazyModule(alias, target, namespace)
    if len(datasets) == 1:
        namespace["df"] = next(iter(datasets.values()))
    return namespace


def _run_cell(message: dict[str, Any], namespace: dict[str, Any], workspace: Path,
              loaded: dict[str, Any] | None = None, helpers: dict[str, Any] | None = None) -> dict[str, Any]:
    n, code = message["cell"], message["code"]
    if message.get("fresh_data") and loaded is not None:
        cell_names.fresh_data(namespace, loaded)
    cell_names.helpers_back(namespace, helpers or {})
    if message.get("apart"):
        namespace = cell_names.apart(namespace)
    namespace.pop("result", None)
    namespace.pop("fig", None)
    capture = _Capture(message["output_bytes"])
    reply: dict[str, Any] = {"type": "done", "error": None, "breached": None, "result": None,
                             "result_type": None, "figures": [], "tables": []}
    saved_streams = sys.stdout, sys.stderr
    allowed = message.get("allowed_imports")
    hidden = _guarded_run(namespace, allowed) if allowed is not None else None
    sys.stdout = sys.stderr = capture
    try:
        artifacts.register_source(n, code)
        exec(compile(code, artifacts.cell_filename(n), "exec"), namespace)  # noqa: S102 - the point
    except OutputLimitExceeded:
        pass
    except MemoryError as exc:
        reply["breached"] = "memory"
        reply["error"] = f"MemoryError: {exc}"
    except BaseException as exc:  # noqa: BLE001 - SystemExit or KeyboardInterrupt are the cell's too
        reply["error"] = artifacts.format_error(exc, namespace)
    finally:
        sys.stdout, sys.stderr = saved_streams
        if hidden is not None:
            _unguard(namespace, hidden)
    if capture.exceeded:
        reply["breached"] = "output"
    reply["stdout"] = capture.getvalue()
    try:
        if reply["error"] is None and reply["breached"] is None:
            _collect(namespace, workspace, n, reply)
        elif (plt := artifacts.loaded("matplotlib.pyplot")) is not None:
            plt.close("all")
    except MemoryError:
        reply["breached"] = "memory"
    except Exception as exc:  # noqa: BLE001 - a figure that cannot be saved is the cell's error
        reply["error"] = f"Could not save the result or figure: {type(exc).__name__}: {exc}"
    return reply


def _collect(namespace: dict[str, Any], workspace: Path, n: int, reply: dict[str, Any]) -> None:
    if "result" in namespace:
        value = namespace["result"]
        if artifacts.is_plotly_figure(value):  # the chart stored as the answer: keep it as the figure
            namespace.setdefault("fig", value)
            try:
                value = artifacts.figure_data(value)
            except Exception:  # noqa: BLE001 - an exotic chart keeps its plain text form
                pass
        reply["result"], reply["result_type"] = artifacts.describe_result(value)
        reply["tables"] = artifacts.save_table(value, workspace, n)
    reply["figures"] = artifacts.save_figures(namespace.get("fig"), "fig" in namespace, workspace, n)
    fig = namespace.get("fig")
    if reply["figures"] and artifacts.is_plotly_figure(fig) and fig is not namespace.get("result"):
        try:  # what the chart shows, so an explanation can quote its numbers instead of inventing them
            reply["figure_data"] = artifacts.describe_result(artifacts.figure_data(fig))[0][:1500]
        except Exception:  # noqa: BLE001 - an exotic chart: no numbers to show
            pass


def _read_config() -> tuple[dict[str, Any], int]:
    """The configuration is the first message on stdin (the command pipe), not a file the code
    could read; the pipe moves to another fd and stdin becomes /dev/null."""
    config = protocol.recv(0)
    if config is None:
        raise SystemExit("dsagent worker: no configuration on stdin")
    command_fd = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return config, command_fd


def main() -> int:
    config, command_fd = _read_config()
    reply_fd = config["reply_fd"]
    if config["confine"]:
        confine.set_parent_death_signal(config["parent_pid"])
    report = confine.ConfinementReport()
    sys.meta_path.insert(0, _FontSetup())
    try:
        if config["confine"]:
            confine.enter_network_namespace(report)
        import numpy  # noqa: F401 - loaded before confinement, with the datasets
        import pandas  # noqa: F401

        datasets, tables = _load_datasets(Path(config["data_dir"]), config.get("sql") or {}, Path(config["workspace"]))
        mpl_dir = Path(config["mpl_dir"])
        if not any(mpl_dir.glob("fontlist-*.json")):
            import matplotlib.font_manager  # noqa: F401 - builds the font cache while we may write

        if config["confine"]:
            confine.confine(config["workspace"], config["data_dir"], str(mpl_dir), config["read_files"], report,
                            uid=config.get("uid"), parent_pid=config["parent_pid"], hard_limits=config.get("hard_limits"))
        namespace = _build_namespace(datasets, tables)
        loaded = dict(namespace["datasets"])  # the data as loaded, for a cell that asks for it fresh
        if tables.big:  # DuckDB's threads start here, confined: Landlock and capabilities are per thread
            tables.con  # noqa: B018 - opens the views over the big files before the first cell
        if config.get("sql_bridge"):  # a database source: sql() asks dsagent, which holds the connection
            sql_bridge.bind(namespace, command_fd, reply_fd, config.get("sql_tables") or {})
        helpers = {name: namespace[name] for name in cell_names.HELPERS if name in namespace}
    except BaseException as exc:  # noqa: BLE001 - the parent must learn why the worker died
        protocol.send(reply_fd, {"type": "fatal", "error": f"{type(exc).__name__}: {exc}"})
        return 1
    warmup = _Warmup(namespace)
    if config["preload"]:
        warmup.start()
    protocol.send(reply_fd, {"type": "ready", "features": report.features, "notes": report.notes})
    workspace = Path(config["workspace"])
    while (message := protocol.recv(command_fd)) is not None:
        if message["op"] == "status":  # always followed by "run"
            warmup.may_import.clear()
            warm = warmup.done.is_set() or not config["preload"]
            protocol.send(reply_fd, {"type": "status", "library_mb": warmup.library_mb, "warm": warm,
                                     "importing": warmup.importing})
        elif message["op"] == "run":
            started = time.perf_counter()
            reply = _run_cell(message, namespace, workspace, loaded, helpers)
            reply["duration_s"] = time.perf_counter() - started
            protocol.send(reply_fd, reply)
            warmup.may_import.set()
    return 0


if __name__ == "__main__":
    sys.exit(main())
