# The two commands of the README. Each creates or reuses .venv/ and installs the project first.
#   make run   - the platform with demo data on http://127.0.0.1:8000 (embedded default: SQLite,
#                in-memory channel layer, tasks in-process), unless DATABASE_URL/REDIS_URL are set
#   make test  - the whole test suite (installs Debian's chromium for the browser tests if missing), in
#                parallel processes (pytest-xdist, pyproject.toml's addopts); PYTEST_ARGS adds options
#   make test-fast - the edit-run loop: all but the browser tests and the slow ones (fault injection,
#                benchmark smoke tests, the long sweeps)
#   make lint  - ruff (lint and format check) and import-linter's contracts
#   make docs  - the documentation site in build/site (mkdocs build --strict: a broken link fails)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast lint format docs docs-serve venv chromium worker bench clean clean-numba

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@rm -f $(VENV)/.installed-*; touch $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py seed_demo_markets
	$(BIN)/python manage.py seed_demo_loebner
	$(BIN)/python manage.py seed_demo_wager
	$(BIN)/python manage.py seed_demo_tables
	$(BIN)/python manage.py seed_demo_studies
	$(BIN)/python manage.py arena_sweep
	@echo "Serving on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/)"
	$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; }

test: $(STAMP) chromium
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# rewrite the tree in the project's format and apply ruff's safe fixes
format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve -a 127.0.0.1:8001

# services mode: a Celery worker for bot replies and timers (run as many as you like, on any machine)
worker: $(STAMP)
	$(BIN)/celery -A config worker -l info -Q celery,lambdastar,bots -B

# services mode (DATABASE_URL, REDIS_URL): the chat benchmark beside its baselines; the others run as
# modules too: python -m bench.<markets|lpp_latency|lambdastar_celery|lambdastar_speed|bots>
bench: $(STAMP)
	$(BIN)/python -m bench.chat_latency $(BENCH_ARGS)

clean: clean-numba
	rm -rf $(VENV) var staticfiles .pytest_cache build

# numba's on-disk cache checks only the cached function's own file: after editing a kernel that
# another file's compiled function calls, clear it
clean-numba:
	find lambdastar -name '*.nbi' -delete -o -name '*.nbc' -delete
