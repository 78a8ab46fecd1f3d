# pizarra: `make serve` sets up and serves the bundled course; `make test` sets up and runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.pizarra-setup

.PHONY: setup serve test lint bench corpus clean

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

# A folder of MyST lectures (e.g. a Jupyter Book's lectures/), imported, checked and built:
# make corpus DIR=path/to/lectures [LECTURES="geom_series pv"]
corpus: setup
	@test -n "$(DIR)" || { echo 'usage: make corpus DIR=folder [LECTURES="a b"]'; exit 2; }
	$(BIN)/python bench/myst_corpus.py "$(DIR)" $(LECTURES)

clean:
	rm -rf $(VENV) _site .pizarra-cache dist
