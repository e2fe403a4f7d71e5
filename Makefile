# The two commands of the README: `make run` (the platform) and `make test` (every check).
# Both create and fill .venv themselves, so a fresh machine needs only python3, gcc and make.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test install build lint typecheck ctest pytest pytest-reference pytest-slow pytest-deploy clean

# pip lists what it fetches on a terminal (the first run's minute is not silent); CI
# (CI=true) keeps its log short.
PIP_OUTPUT ?= $(if $(CI),--quiet,--progress-bar on)
# Options for `arena platform`, e.g. make run ARGS="--redis --port 8080" (arena platform --help).
ARGS ?=

$(STAMP): pyproject.toml setup.py $(wildcard sdk/pyproject.toml)
	@echo "==> $(VENV): a virtualenv with the SDK, the platform and its checks (once, 1-3 minutes)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install $(PIP_OUTPUT) --upgrade pip setuptools wheel
	@echo "==> [1/2] the bot SDK (./sdk)"
	$(PY) -m pip install $(PIP_OUTPUT) -e './sdk[dev,health,fast]'
	@echo "==> [2/2] the platform and its server libraries (.[platform,dev])"
	$(PY) -m pip install $(PIP_OUTPUT) -e '.[platform,dev]'
	touch $(STAMP)

install: $(STAMP)

# Rebuild the C core in place whenever its sources changed (cheap when they did not).
build: $(STAMP)
	@echo "==> the engine's C cores (rebuilt only when their sources changed)"
	$(PY) setup.py --quiet build_ext --inplace

run: build
	$(VENV)/bin/arena platform $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check arena tests web workers sdk
	$(VENV)/bin/lint-imports

typecheck: $(STAMP)
	$(VENV)/bin/mypy

ctest:
	sh arena/engine/_core/run_tests.sh

# The tests write Python's bytecode caches (__pycache__, ignored by git and by the images'
# build context) even where the environment says not to (PYTHONDONTWRITEBYTECODE, set on
# the CI machines): without them every pytest process and xdist worker compiles and
# assertion-rewrites the test modules again (6.5 of its 10 s of CPU to collect the suite),
# and every `arena`, worker or site process it starts compiles the platform's modules again
# (0.9 of its 1.3 s of CPU to import them). What runs is the same.
TESTENV := PYTHONDONTWRITEBYTECODE=

# Both cores at once (pytest-xdist), a test file per worker so module fixtures (servers,
# browsers) start once: about half the wall time of one process.
XDIST := -n 2 --dist loadfile
pytest: build
	$(TESTENV) ARENA_REQUIRE_C=1 $(PY) -m pytest -m "not slow" $(XDIST)

# The engine suite again on the pure-Python reference (msgpack's MSGPACK_PUREPYTHON idea).
pytest-reference: build
	$(TESTENV) ARENA_PUREPYTHON=1 $(PY) -m pytest -m "not slow" $(XDIST) tests/engine arena/engine --doctest-modules

# The C-vs-reference differentials (the main core's 100,000 hands in twenty chunks, those
# of the Cancellation, Domino and Enfle cores in chunks too, and the Penny core's) are
# independent tests: on both cores at once (pytest-xdist), none near the timeout; the rest
# of the slow tests (outages, restarts) one by one.
DIFFERENTIALS := tests/engine/test_differential.py tests/engine/test_cancellation.py \
	tests/engine/test_domino_differential.py tests/engine/test_penny_differential.py \
	tests/engine/test_enfle_differential.py
pytest-slow: build
	$(TESTENV) ARENA_REQUIRE_C=1 $(PY) -m pytest -m slow -n 2 $(DIFFERENTIALS)
	$(TESTENV) ARENA_REQUIRE_C=1 $(PY) -m pytest -m slow $(addprefix --ignore=,$(DIFFERENTIALS))

# The real deployment (tests/deploy/test_stack.py): images built (deploy/base-images.sh
# without a registry), the compose stack up on 127.0.0.1 with host networking, a season
# across two worker containers, one killed mid-match, down and up again. Needs a running
# Docker engine (.ci/run starts one); skipped with the reason when there is none, except
# under CI. Images stay cached: a second run builds nothing.
pytest-deploy: build
	$(TESTENV) ARENA_REQUIRE_C=1 $(PY) -m pytest -m deploy tests/deploy

test: lint typecheck ctest pytest pytest-reference pytest-slow pytest-deploy

clean:
	rm -rf build arena/engine/*.so arena/engine/variants/*.so $(VENV)
