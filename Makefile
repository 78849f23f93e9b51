# jax-docs-ko: every target works from a fresh clone (it creates .venv when missing).
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
JAXKO := $(BIN)/jaxko
STAMP := $(VENV)/.installed-stamp
# mermaid for the site's diagrams, from the npm registry (jaxko.sphinxext.offline_mermaid)
MERMAID := $(VENV)/.mermaid-stamp
export PATH := $(abspath $(BIN)):$(PATH)
export JAX_PLATFORMS ?= cpu

.PHONY: help setup system-deps upstream gettext update-po html watch check notebooks test test-fast test-newest test-oldest bench clean
.PHONY: review-html review

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 14

$(STAMP): pyproject.toml constraints/default.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# The default toolchain: the versions jaxko.site.ext.speedups was tested with.
	$(BIN)/python -m pip install --quiet -c constraints/default.txt -e '.[test,notebooks]'
	@# Bytecode now: where PYTHONDONTWRITEBYTECODE is set, every `jaxko` run would
	@# otherwise compile its modules again (~80 ms of a 0.3 s `jaxko check`).
	$(BIN)/python -m compileall -q tools/jaxko
	@touch $(STAMP)

$(MERMAID): tools/jaxko/sphinxext/offline_mermaid.py | $(STAMP)
	$(BIN)/python -m jaxko.sphinxext.offline_mermaid
	@touch $(MERMAID)

setup: system-deps $(STAMP) $(MERMAID)  ## create .venv, install the project, tests and notebook extras

system-deps:  ## Debian packages tests need (cmake/g++ for ffi.md, Chromium + Korean fonts)
	@bash .ci/system-deps.sh

upstream: $(STAMP) $(MERMAID)  ## stage the pinned upstream docs into _build/upstream
	$(JAXKO) upstream sync

gettext: upstream  ## extract messages (.pot) with Sphinx's gettext builder
	$(JAXKO) extract

update-po: gettext  ## update locale/ko catalogs from the .pot files (lossless)
	$(JAXKO) update

html: upstream  ## build the Korean site into _build/html
	$(JAXKO) site build

watch: upstream  ## build the Korean site (no execution: the last Korean run's notebook outputs), then again after each saved edit of locale/ or the glossary
	$(JAXKO) site watch --no-execute

check: upstream  ## static checks on locale/ko, then a Korean build failing on i18n warnings
	$(JAXKO) check locale/ko
	$(JAXKO) site build --no-execute --no-notebooks --strict --outdir _build/check-html

review: setup  ## review in the browser: a local web app over the person's queue (DOC=name for one document)
	$(JAXKO) review serve $(DOC)

review-html: setup  ## side-by-side review pages (English | Korean | findings | review records), opened on the person's queue, in _build/review
	$(JAXKO) review html

notebooks: upstream  ## build Korean notebooks and execute them on real JAX (CPU)
	$(JAXKO) notebooks build
	$(JAXKO) notebooks verify

test: setup  ## the whole test suite (unit and integration tiers)
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -q

test-fast: setup  ## the unit tier only (no Sphinx build, notebook or browser)
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder -q -m "not integration"

# The toolchain tier: the tests that build the site or run its search code (what a
# Sphinx, MyST, docutils or theme version can change), for `make test-oldest`; either target takes
# NEWEST_TESTS=/OLDEST_TESTS= to narrow or widen what it runs.
TOOLCHAIN_TESTS := tests/test_site_speedups.py tests/test_site_toolchain_compat.py tests/test_site.py \
	tests/test_site_browser.py tests/test_site_navigation.py tests/test_site_i18n_costs.py \
	tests/test_site_translated_markup.py tests/test_site_doctest_flags.py tests/test_site_gate.py \
	tests/test_site_cell_toggles.py tests/test_pipeline.py tests/test_site_search_escape.py \
	tests/test_site_search_titles.py
TOOLCHAIN_VERSIONS := import sphinx, docutils, myst_parser, myst_nb, sys; from importlib.metadata import version; \
	print('Python', sys.version.split()[0], 'Sphinx', sphinx.__version__, 'docutils', docutils.__version__, \
	'MyST-Parser', myst_parser.__version__, 'MyST-NB', myst_nb.__version__, \
	'sphinx-book-theme', version('sphinx-book-theme'), 'pydata-sphinx-theme', version('pydata-sphinx-theme'))

# The newest toolchain the registry serves for the newest Python here (3.13 where
# installed, pyenv's included; a shim that does not run is skipped): Sphinx, MyST,
# docutils and the theme unpinned, the whole suite (NEWEST_TESTS empty: every test).
NEWEST_PYTHON ?= $(shell for p in python3.13 $$HOME/.pyenv/versions/3.13*/bin/python3.13 \
	python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12 $(PYTHON) python3; do \
	$$p -c 'import sys' >/dev/null 2>&1 && { command -v $$p; break; }; done)
NEWEST := .venv-newest
NEWEST_TESTS ?=
test-newest: system-deps  ## the whole suite on the newest Python, Sphinx, MyST, docutils and theme the registry serves
	@test -x $(NEWEST)/bin/python || $(NEWEST_PYTHON) -m venv $(NEWEST)
	$(NEWEST)/bin/python -m pip install --quiet --upgrade pip
	$(NEWEST)/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[test,notebooks]'
	$(NEWEST)/bin/python -m jaxko.sphinxext.offline_mermaid
	$(NEWEST)/bin/python -c "$(TOOLCHAIN_VERSIONS)" | sed 's/^/newest toolchain: /'
	PATH=$(abspath $(NEWEST))/bin:$$PATH $(NEWEST)/bin/python -m pytest -n 2 --dist loadfile -q $(NEWEST_TESTS)

# The oldest toolchain the pins allow (constraints/oldest.txt: Sphinx 8.2.0,
# MyST-Parser 5.0.0, the lowest MyST-NB, theme and docutils) on Python 3.11, the
# toolchain tier.
OLDEST_PYTHON ?= python3.11
OLDEST := .venv-oldest
OLDEST_TESTS ?= $(TOOLCHAIN_TESTS)
test-oldest: system-deps  ## the toolchain tier on the oldest Sphinx, MyST, docutils and theme the pins allow (Python 3.11)
	@test -x $(OLDEST)/bin/python || $(OLDEST_PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST)/bin/python -m pip install --quiet -c constraints/oldest.txt -e '.[test,notebooks]'
	$(OLDEST)/bin/python -m jaxko.sphinxext.offline_mermaid
	$(OLDEST)/bin/python -c "$(TOOLCHAIN_VERSIONS)" | sed 's/^/oldest toolchain: /'
	PATH=$(abspath $(OLDEST))/bin:$$PATH $(OLDEST)/bin/python -m pytest -n 2 --dist loadfile -q $(OLDEST_TESTS)

bench: setup upstream  ## run the benchmarks, printing figures for BENCHMARKS.md
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

clean:  ## remove build outputs and the check cache (keeps .venv)
	rm -rf _build .jaxko_cache
