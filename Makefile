# The two commands of the quick start: `make demo` and `make test`. Both set everything up first.
SHELL := /bin/bash
DEMO_QUESTION ?= Which region has the highest total revenue (units times unit_price)? Show total revenue per region as a bar chart.

.PHONY: setup demo test test-fast bench-dabench bench-sandbox bench-profile bench-bigdata

setup:
	@bash scripts/setup.sh

demo: setup
	.venv/bin/dsagent ask examples/sales.csv "$(DEMO_QUESTION)"

test: setup
	.venv/bin/python -m pytest

test-fast: setup
	.venv/bin/python -m pytest -m "not real_model"

bench-dabench: setup
	.venv/bin/python benchmarks/dabench.py --workflow quick --model local

bench-sandbox: setup
	.venv/bin/python benchmarks/sandbox_bench.py

bench-profile: setup
	.venv/bin/python benchmarks/profile_bench.py

bench-bigdata: setup
	.venv/bin/python benchmarks/bigdata.py
