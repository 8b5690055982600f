"""End to end in a real browser: ``dsagent web`` as a subprocess, Debian's headless Chromium via Playwright.

A person's path: open the page, choose a CSV in the file input, type a question, wait for the
answer and the chart. Fails when Chromium is missing; ``DSAGENT_SKIP_BROWSER_TESTS=1`` skips it.
"""

from __future__ import annotations

import os
import time

import pytest

from tests.web.browser_harness import SKIP_VAR, WebServer, ask, chromium_problem, launch_browser, open_app, upload, wait_for_answer

pytestmark = pytest.mark.browser

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "chart"}
CODE = ("```python\ntotals = df.groupby('地域', as_index=False)['売上'].sum()\n"
        "fig = px.bar(totals, x='地域', y='売上', title='地域別の売上')\nresult = totals\n```")
ANSWER = "**東京** の売上が最も多い (17)。 Tokyo has the highest sales."


def require_browser() -> None:
    """Skip only when asked to; a missing Chromium is a failure, so CI cannot pass without it."""
    if os.environ.get(SKIP_VAR) == "1":
        pytest.skip(f"{SKIP_VAR}=1")
    problem = chromium_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


def test_upload_ask_and_see_the_chart_in_chromium(tmp_path, script_file):
    require_browser()
    from playwright.sync_api import sync_playwright

    data = tmp_path / "売上.csv"
    data.write_text("地域,売上\n東京,10\n大阪,5\n東京,7\n名古屋,3\n", encoding="utf-8")
    spec = script_file([PLAN, CODE, ANSWER])
    started = time.perf_counter()
    with WebServer(spec, tmp_path / "server.log", cwd=tmp_path) as web, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        try:
            page = open_app(browser, web.url)
            assert page.get_by_test_id("stTextInputField").input_value() == spec
            upload(page, data)
            page.get_by_test_id("stSidebar").get_by_text("4 rows × 2 columns").wait_for()
            ask(page, "どの地域の売上が最も多い？")
            wait_for_answer(page, "Tokyo has the highest sales.")
            chart = page.get_by_test_id("stPlotlyChart").locator(".js-plotly-plot")
            chart.first.wait_for()
            page.get_by_text("地域別の売上").first.wait_for()  # the chart's Japanese title, drawn by plotly.js
            shot = tmp_path / "answer.png"
            page.screenshot(path=str(shot))
            body = page.get_by_test_id("stMainBlockContainer").inner_text()
        finally:
            browser.close()
    seconds = time.perf_counter() - started
    print(f"browser end-to-end: {seconds:.1f}s")

    assert "東京 の売上が最も多い" in body and "Tokyo has the highest sales." in body
    assert "Code" in body and "Report (.md)" in body
    assert "Traceback" not in body
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    # The upload was saved into the session's workspace, and nowhere else.
    uploads = list((tmp_path / "workspace").glob("*/uploads/*"))
    assert [p.name for p in uploads] == ["売上.csv"] and uploads[0].read_bytes() == data.read_bytes()
    runs = list((tmp_path / "workspace").glob("*/runs/*/report.md"))
    assert len(runs) == 1 and "Tokyo" in runs[0].read_text(encoding="utf-8")
