# The two commands of the README: `make run` (the platform) and `make test` (every check).
# Both create and fill .venv themselves, so a fresh machine needs only python3, gcc and make.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test install build lint typecheck ctest pytest pytest-reference pytest-slow clean

$(STAMP): pyproject.toml setup.py $(wildcard sdk/pyproject.toml)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip setuptools wheel
	$(PY) -m pip install --quiet -e './sdk[dev,health,fast]'
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Rebuild the C core in place whenever its sources changed (cheap when they did not).
build: $(STAMP)
	$(PY) setup.py --quiet build_ext --inplace

run: build
	$(VENV)/bin/arena platform

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check arena tests web workers sdk
	$(VENV)/bin/lint-imports

typecheck: $(STAMP)
	$(VENV)/bin/mypy

ctest:
	sh arena/engine/_core/run_tests.sh

pytest: build
	ARENA_REQUIRE_C=1 $(PY) -m pytest -m "not slow"

# The engine suite again on the pure-Python reference (msgpack's MSGPACK_PUREPYTHON idea).
pytest-reference: build
	ARENA_PUREPYTHON=1 $(PY) -m pytest -m "not slow" tests/engine arena/engine --doctest-modules

# The C-vs-reference differentials (the main core's 100,000 hands in twenty chunks, and
# those of the Cancellation, Domino and Penny cores) are independent tests: on both cores
# at once (pytest-xdist); the rest of the slow tests (outages, restarts) one by one.
DIFFERENTIALS := tests/engine/test_differential.py tests/engine/test_cancellation.py \
	tests/engine/test_domino_differential.py tests/engine/test_penny_differential.py
pytest-slow: build
	ARENA_REQUIRE_C=1 $(PY) -m pytest -m slow -n 2 $(DIFFERENTIALS)
	ARENA_REQUIRE_C=1 $(PY) -m pytest -m slow $(addprefix --ignore=,$(DIFFERENTIALS))

test: lint typecheck ctest pytest pytest-reference pytest-slow

clean:
	rm -rf build arena/engine/*.so $(VENV)
