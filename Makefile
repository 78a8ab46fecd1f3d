# pizarra: `make serve` sets up what serving needs and serves the bundled course;
# `make test` sets up everything the tests need and runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.pizarra-setup
SERVE_STAMP := $(VENV)/.pizarra-serve

.PHONY: setup serve test lint bench corpus fuzz clean soundness mutate

# What serving needs: pizarra and its own dependencies, no test tools.
$(SERVE_STAMP): pyproject.toml
	bash scripts/setup-system.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	$(BIN)/python -m pizarra.render.assets
	$(BIN)/python -m pizarra.render.templating
	touch $@

# Everything the tests, linters and benchmarks need besides.
$(STAMP): $(SERVE_STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(STAMP)

serve: $(SERVE_STAMP)
	$(BIN)/pizarra serve --example

test: setup
	bash scripts/setup-system.sh --browser
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pytest -n auto --dist worksteal  # a worker a core; an idle worker takes from the other's queue

# The soundness property at length (the test suite runs a short profile of it).
soundness: setup
	PIZARRA_HYPOTHESIS=long $(BIN)/pytest -q tests/test_soundness_property.py tests/test_soundness_calls.py \
		tests/test_soundness_laurent.py \
		--hypothesis-show-statistics

# Mutation testing of the claim checker's core (docs/testing.md): about 3,350 mutants, about 2 hours on one core.
MUTATE_TIMEOUT ?= 3h
mutate: setup
	rm -rf mutants
	PIZARRA_HYPOTHESIS=mutate timeout $(MUTATE_TIMEOUT) $(BIN)/mutmut run --max-children 1 \
		> mutmut.log 2>&1 || (tail -c 2000 mutmut.log; exit 1)
	$(BIN)/python scripts/mutation_score.py

# bench_vs_peers: pizarra, MkDocs, Sphinx and mystmd on 20 and 200 lessons (needs node and
# npm for mystmd alone). One round of both sizes took 7.4 min on 2 cores; the default 3
# rounds take about three times that (Sphinx's cold build of 200 lessons is about 3 min).
bench: setup
	$(BIN)/python bench/bench_vs_mkdocs.py
	$(BIN)/python bench/bench_vs_peers.py --rounds 3
	$(BIN)/python bench/bench_first_page.py
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_parse.py
	$(BIN)/python bench/bench_claims.py

# make fuzz [EXAMPLES=20000]: a long Hypothesis session on the parsers of untrusted text.
fuzz: setup
	PIZARRA_FUZZ_EXAMPLES=$(or $(EXAMPLES),3000) \
		$(BIN)/pytest -q tests/test_fuzz.py --hypothesis-show-statistics

# A folder of MyST lectures (e.g. a Jupyter Book's lectures/), imported, checked and built:
# make corpus DIR=path/to/lectures [LECTURES="geom_series pv"] [TIMEOUT=300] [MEMORY=4096]
# The output blocks are written first, as an author does after importing.
corpus: setup
	@test -n "$(DIR)" || { echo 'usage: make corpus DIR=folder [LECTURES="a b"] [TIMEOUT=s]'; exit 2; }
	$(BIN)/python bench/myst_corpus.py "$(DIR)" $(LECTURES) --update-outputs $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
		$(if $(MEMORY),--kernel-memory $(MEMORY))

clean:
	rm -rf $(VENV) _site .pizarra-cache dist mutants mutmut.log
