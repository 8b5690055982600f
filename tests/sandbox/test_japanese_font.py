"""Charts display Japanese (seed 001): matplotlib-fontja's IPAex Gothic is the fallback font of
every chart the sandbox draws, also after a seaborn theme has reset the font lists."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from dsagent.sandbox import Sandbox

from .conftest import TEST_LIMITS

PLOTTING = replace(TEST_LIMITS, wall_s=120.0)  # matplotlib and seaborn on a cold worker

CHARTS = """
import warnings
from matplotlib import font_manager
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fig, ax = plt.subplots()
    ax.bar(["北", "南", "東"], [10, 20, 30])
    ax.set_title("地域別の売上（2024年）")
    ax.set_xlabel("地域")
    ax.set_ylabel("売上 (units)")
    fig.savefig("jp_matplotlib.png")
    sns.set_theme()  # rewrites font.sans-serif
    grid = sns.barplot(x=["一月", "二月"], y=[3, 4])
    grid.set_title("月別の推移")
    grid.figure.savefig("jp_seaborn.png")
    plt.close("all")
result = {
    "warnings": [str(w.message) for w in caught],
    "registered": Path(font_manager.fontManager.findfont("IPAexGothic", fallback_to_default=False)).name,
    "fallback": "IPAexGothic" in plt.rcParams["font.sans-serif"],
}
"""


def test_japanese_titles_render_with_a_cjk_font(sandbox: Sandbox) -> None:
    res = sandbox.run("from pathlib import Path\n" + CHARTS, PLOTTING)
    assert res.success, res.error
    outcome = eval(res.result)  # noqa: S307 - the repr of a dict of strings and a bool, from our own cell
    assert outcome["registered"] == "ipaexg.ttf"
    assert not [w for w in outcome["warnings"] if "missing from font" in w], outcome["warnings"]
    assert "missing from font" not in res.stdout
    workspace = sandbox.sandbox_dir
    for name in ("jp_matplotlib.png", "jp_seaborn.png"):
        assert (workspace / name).stat().st_size > 5_000


def test_a_glyph_neither_font_has_is_still_reported(sandbox: Sandbox) -> None:
    """The check above can fail: a Thai letter (in neither font) gives the warning it looks for."""
    code = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    fig, ax = plt.subplots(); ax.set_title('\\u0e01 データ'); fig.savefig('thai.png'); plt.close('all')\n"
        "result = [str(w.message) for w in caught]"
    )
    res = sandbox.run(code, PLOTTING)
    assert res.success, res.error
    assert "missing from font" in res.result and "IPAexGothic" in res.result
    assert Path(sandbox.sandbox_dir / "thai.png").exists()
