"""A workspace as a run leaves it: a Plotly JSON figure, a PNG, a result table; and quick's package."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd
    import plotly.express as px

    ws = tmp_path / "ws"
    (ws / "figures").mkdir(parents=True)
    (ws / "tables").mkdir()
    frame = pd.DataFrame({"region": ["North", "South", "East"], "units": [22, 17, 24]})
    fig = px.bar(frame, x="region", y="units", title="Units <b>by</b> region")
    (ws / "figures" / "cell_1.json").write_text(fig.to_json())
    figure, ax = plt.subplots(figsize=(2, 2))
    ax.plot([1, 2, 3])
    figure.savefig(ws / "figures" / "cell_1_1.png", dpi=40)
    plt.close("all")
    frame.set_index("region")["units"].to_csv(ws / "tables" / "cell_1_result.csv")
    return ws


@pytest.fixture
def quick_output(workspace: Path) -> dict:
    """explain_node's final_output after one failed and one successful attempt."""
    return {
        "explanation": "East sold the most units (24).",
        "evaluation": "The sums match the data.",
        "code": "result = df.groupby('region')['units'].sum()\nfig = px.bar(result.reset_index(), x='region', y='units')\n",
        "plan": {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "group"},
        "output_type": "visualization",
        "figures": [str(workspace / "figures" / "cell_1.json"), str(workspace / "figures" / "cell_1_1.png")],
        "result_str": "region\nEast     24\nNorth    22\nSouth    17",
        "failed_attempts": [{"attempt": 1, "code": "result = df['Units']", "error": "Traceback ...\nKeyError: 'Units'"}],
        "alignment_caveats": ["units has 2 missing values"],
    }
