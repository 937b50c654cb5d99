# Two commands set everything up: `make run` and `make test`. Python packages come from the
# lock files in requirements/ (`make lock` regenerates them from pyproject.toml).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The browser client's Socket.IO library, from npm (package.json), served as a static file.
SOCKETIO_JS := app/web/static/vendor/socket.io.min.js

.PHONY: run test lint lock bench clean

# Each step says what it does, and pip shows its progress: a first install takes a minute
# or two.
$(PY):
	@echo "make: creating the Python virtual environment $(VENV) with $(PYTHON), and updating its pip"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip

$(VENV)/.installed: requirements/base.txt pyproject.toml | $(PY)
	@echo "make: installing the server's Python packages into $(VENV) from requirements/base.txt (a minute or two the first time)"
	$(PY) -m pip install --require-hashes -r requirements/base.txt
	$(PY) -m pip install --no-deps -e .
	@touch $@

$(VENV)/.installed-dev: requirements/dev.txt pyproject.toml | $(PY)
	@echo "make: installing the server's and the tests' Python packages into $(VENV) from requirements/dev.txt (a minute or two the first time)"
	$(PY) -m pip install --require-hashes -r requirements/dev.txt
	$(PY) -m pip install --no-deps -e .
	@touch $@ $(VENV)/.installed

# Every platform and Python 3.11+, with hashes; the image installs base.txt, CI dev.txt.
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 \
	--generate-hashes --native-tls --custom-compile-command "make lock" --quiet
lock: $(VENV)/.installed-dev
	$(LOCK) --output-file requirements/base.txt
	$(LOCK) --extra dev --output-file requirements/dev.txt

$(SOCKETIO_JS): package.json package-lock.json
	@command -v npm >/dev/null || { echo "make: the browser client needs Node.js 18+ with npm" \
	  "(https://nodejs.org or your system's nodejs and npm packages)"; exit 1; }
	@echo "make: installing the browser's Socket.IO client from npm (package-lock.json) into $(@D)"
	npm ci --no-audit --no-fund
	mkdir -p $(@D)
	cp node_modules/socket.io-client/dist/socket.io.min.js $@

# `holdem serve` migrates the development database before it serves.
run: $(VENV)/.installed $(SOCKETIO_JS)
	$(PY) -m app.cli serve --host $(HOST) --port $(PORT)

# Every test, spread over TEST_WORKERS pytest-xdist workers, each with databases of its own.
# With --dist loadgroup a worker is handed the next test whenever it is nearly out of work
# (the long tests come first: tests/suite.py). TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= 4
test: $(VENV)/.installed-dev $(SOCKETIO_JS)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check app tests bench
	$(VENV)/bin/mypy

bench: $(VENV)/.installed-dev
	$(PY) bench/evaluator.py
	$(PY) bench/equity.py
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
