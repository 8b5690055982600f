"""Screenshots of the web app's clean mode for the docs: docs/img/web-clean-review.png, web-clean-done.png.

Runs ``dsagent web`` with the scripted model on a small dirty table made here, switches to Clean,
asks for the recommended steps, shows the review (approve / change controls), approves and shows
the result. Needs /usr/bin/chromium and the dev group (playwright), as scripts/screenshots.py.

    .venv/bin/python scripts/screenshots_clean.py [--out docs/img]
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

from browser_harness import WebServer, chromium_problem, launch_browser, open_app, upload  # noqa: E402

DECISION = {"reasoning": "Prices are text with currency signs and city names vary in case and spelling; the user wants every order kept, "
                         "so no rows are dropped for missing values or outliers.",
            "drop_sparse_columns": True, "impute_missing": True, "fix_types": True, "drop_duplicates": True,
            "drop_missing_rows": False, "drop_outliers": False, "skip_findings": [], "extra_steps": []}


def dirty_table(path: Path) -> Path:
    cities = ["Lisbon", "Porto", "Braga", "Faro"]
    rows = ["order_id,city,price,units,ordered"]
    for i in range(80):
        rows.append(f"{1000 + i},{cities[i % 4]},{4.5 + (i * 7) % 30:.2f},{1 + i % 6},2024-{1 + i % 12:02d}-{1 + i % 27:02d}")
    rows[4] = '1003, porto ,"$1,250.00",2,2024-04-04'
    rows[9] = "1008,Lisbn,n.a.,3,March 9 2024"
    rows[15] = "1014,FARO,12.00 EUR,-1,15/03/2024"
    rows[20] = "1019,Braga,?,4,2024/08/20"
    rows.append(rows[30])
    path.write_text("\n".join(rows) + "\n")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args()
    problem = chromium_problem()
    if problem:
        print(f"screenshots: {problem}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dsagent-shots-") as tmp:
        work = Path(tmp)
        script = work / "replies.json"
        script.write_text(json.dumps([json.dumps(DECISION)]), encoding="utf-8")
        data = dirty_table(work / "orders.csv")
        env = {"DSAGENT_HOME": str(work / "home"), "DSAGENT_WORKSPACE_ROOT": str(work / "workspace")}
        os.environ.pop("DSAGENT_DATABASE_URL", None)
        with WebServer(f"scripted:{script}", work / "server.log", env=env, cwd=work) as server, sync_playwright() as p:
            browser = launch_browser(p)
            page = open_app(browser, server.url, height=1400)
            upload(page, data)
            page.get_by_test_id("stSidebar").get_by_text("rows ×").first.wait_for(timeout=120_000)
            page.get_by_test_id("stSidebar").get_by_text("Clean", exact=True).first.click()
            box = page.get_by_label("Instructions (optional)")
            box.wait_for(timeout=60_000)
            box.fill("Keep order_id and every genuine order.")
            box.press("Tab")
            time.sleep(1.0)
            page.get_by_role("button", name="Recommend steps").click()
            page.get_by_role("button", name="Approve").wait_for(timeout=180_000)
            time.sleep(1.0)
            shot(page, args.out / "web-clean-review.png")
            page.get_by_role("button", name="Approve").click()
            page.get_by_text("Cleaned: 1 table(s).").wait_for(timeout=180_000)
            time.sleep(1.5)
            shot(page, args.out / "web-clean-done.png")
            browser.close()
    return 0


def shot(page, path: Path) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(path), full_page=True)
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


if __name__ == "__main__":
    sys.exit(main())
