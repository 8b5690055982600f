"""Screenshots of the web app for the docs: docs/img/web-empty.png, web-running.png, web-answer.png.

Runs ``dsagent web`` with the scripted model (each reply slowed by DSAGENT_SCRIPTED_DELAY so the
run can be caught half way) on examples/sales.csv, and drives Debian's headless Chromium with
Playwright, as tests/web/test_web_browser.py does. Needs /usr/bin/chromium (scripts/setup.sh
installs it as root) and the dev group (playwright).

    .venv/bin/python scripts/screenshots.py [--out docs/img] [--delay 2.5]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))

from browser_harness import WebServer, ask, chromium_problem, launch_browser, open_app, upload, wait_for_answer  # noqa: E402

QUESTION = "Which region has the highest total revenue (units × unit_price)? Show revenue per region as a bar chart."
PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True,
        "reasoning": "Revenue is units times unit_price, summed per region; a bar chart compares the regions."}
CODE = """```python
revenue = (df.assign(revenue=df['units'] * df['unit_price'])
             .groupby('region', as_index=False)['revenue'].sum()
             .sort_values('revenue', ascending=False)
             .reset_index(drop=True))
fig = px.bar(revenue, x='region', y='revenue', title='Total revenue per region', text_auto='.3s')
result = revenue
```"""
ANSWER = ("**{top}** has the highest total revenue: **{value:,.0f}**, ahead of {second} ({second_value:,.0f}).\n\n"
          "Revenue is `units × unit_price` summed over all months and products; the chart compares the four regions.")


def replies(sales: Path) -> list[str]:
    import pandas as pd

    frame = pd.read_csv(sales)
    revenue = (frame["units"] * frame["unit_price"]).groupby(frame["region"]).sum().sort_values(ascending=False)
    answer = ANSWER.format(top=revenue.index[0], value=revenue.iloc[0], second=revenue.index[1], second_value=revenue.iloc[1])
    return [json.dumps(PLAN), CODE, answer]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNG files")
    parser.add_argument("--delay", type=float, default=2.5, help="seconds each scripted reply waits (to catch the run mid-way)")
    args = parser.parse_args()
    problem = chromium_problem()
    if problem:
        print(f"screenshots: {problem}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    sales = ROOT / "examples" / "sales.csv"
    with tempfile.TemporaryDirectory(prefix="dsagent-shots-") as tmp:
        work = Path(tmp)
        script = work / "replies.json"
        script.write_text(json.dumps(replies(sales)), encoding="utf-8")
        env = {"DSAGENT_HOME": str(work / "home"), "DSAGENT_WORKSPACE_ROOT": str(work / "workspace"),
               "DSAGENT_SCRIPTED_DELAY": str(args.delay)}
        os.environ.pop("DSAGENT_DATABASE_URL", None)  # the run log goes to the temporary home
        with WebServer(f"scripted:{script}", work / "server.log", env=env, cwd=work) as server, sync_playwright() as p:
            browser = launch_browser(p)
            page = open_app(browser, server.url, height=1100)
            shot(page, args.out / "web-empty.png")
            upload(page, sales)
            ask(page, QUESTION)
            # Caught while the code node runs: the plan is done, its line is in the status box.
            page.get_by_text("quick: code …").first.wait_for(timeout=60_000)
            time.sleep(0.5)
            shot(page, args.out / "web-running.png")
            wait_for_answer(page, "has the highest total revenue")
            page.locator(".js-plotly-plot").first.wait_for()
            page.set_viewport_size({"width": 1400, "height": 1550})  # the whole answer, chart included
            page.get_by_test_id("stChatMessage").first.scroll_into_view_if_needed()
            time.sleep(1.5)  # let the chart redraw at the new size
            shot(page, args.out / "web-answer.png")
            browser.close()
    return 0


def shot(page, path: Path) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


if __name__ == "__main__":
    sys.exit(main())
