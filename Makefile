# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test lint serve migrate bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(PY) -m app.cli migrate
	@echo "holdem-server on http://$(HOST):$(PORT)"
	$(PY) -m app.cli serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-dev
	$(PY) -m pytest -q

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check app tests bench
	$(VENV)/bin/mypy

bench: $(VENV)/.installed-dev
	$(PY) bench/evaluator.py
	$(PY) bench/equity.py
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
