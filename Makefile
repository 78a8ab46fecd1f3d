# pizarra: `make serve` sets up and serves the bundled course; `make test` sets up and runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.pizarra-setup

.PHONY: setup serve test lint bench clean

$(STAMP): pyproject.toml
	bash scripts/setup-system.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(STAMP)

serve: setup
	$(BIN)/pizarra serve

test: setup
	bash scripts/setup-system.sh --browser
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest

bench: setup
	$(BIN)/python bench/bench_build.py

clean:
	rm -rf $(VENV) _site .pizarra-cache dist
