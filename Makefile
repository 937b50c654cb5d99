# Two commands set everything up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The browser client's Socket.IO library, from npm (package.json), served as a static file.
SOCKETIO_JS := app/web/static/vendor/socket.io.min.js

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

$(SOCKETIO_JS): package.json package-lock.json
	npm ci --no-audit --no-fund
	mkdir -p $(@D)
	cp node_modules/socket.io-client/dist/socket.io.min.js $@

run: $(VENV)/.installed $(SOCKETIO_JS)
	$(PY) -m app.cli migrate
	@echo "holdem-server on http://$(HOST):$(PORT)"
	$(PY) -m app.cli serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed-dev $(SOCKETIO_JS)
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
