"""The layers of docs/architecture.md hold: no import runs upward, no package has an import circle.

The contracts are in pyproject.toml ([tool.importlinter]); import-linter reads every import,
those inside functions included. A copy of the source with one upward import planted shows that
the check fails on a violation.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "dsagent"


def _lint(config: Path, source_root: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {"PYTHONPATH": str(source_root), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-c", code, "--config", str(config), "--no-cache"], cwd=config.parent,
                          capture_output=True, text=True, env=env, timeout=300)


def test_the_source_keeps_every_layer_and_has_no_import_circle():
    run = _lint(ROOT / "pyproject.toml", ROOT / "src")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "2 kept, 0 broken" in run.stdout


@pytest.mark.parametrize("module, planted", [
    ("config.py", "\n\ndef _up():\n    from dsagent.session import Session\n    return Session\n"),  # a lazy import counts
    ("cli/output.py", "\n\nfrom dsagent.cli import commands  # noqa\n"),  # a circle inside a package
])
def test_a_planted_upward_import_or_circle_breaks_the_check(tmp_path: Path, module: str, planted: str):
    shutil.copytree(SRC, tmp_path / "src" / "dsagent", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "src" / "dsagent" / module
    target.write_text(target.read_text() + planted)
    run = _lint(tmp_path / "pyproject.toml", tmp_path / "src")
    assert run.returncode != 0 and "1 broken" in run.stdout, run.stdout[-2000:]


def test_every_package_and_module_has_a_layer_and_every_package_a_circle_check():
    """A new package outside the contracts would be checked by nothing: each one needs its place."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    placed = {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}
    packages = {f"dsagent.{p.name}" for p in SRC.iterdir() if (p / "__init__.py").exists()}
    modules = {f"dsagent.{p.stem}" for p in SRC.glob("*.py") if p.stem != "__init__"}
    workflows = {f"dsagent.workflows.{p.name}" for p in (SRC / "workflows").iterdir() if (p / "__init__.py").exists()}
    assert (packages - {"dsagent.workflows"}) | modules | workflows <= placed, "give it a layer in [tool.importlinter] and docs/architecture.md"
    acyclic = set(next(c for c in contracts if c["type"] == "acyclic_siblings")["ancestors"])
    assert packages <= acyclic, "add the package to the acyclic_siblings contract's ancestors"


def test_the_registry_imports_no_workflow():
    """Session finds a graph by name in the registry: a table of module paths, imported only when asked for."""
    tree = ast.parse((SRC / "workflows" / "__init__.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert {m for m in imported if m and m.startswith("dsagent")} <= {"dsagent.errors"}
