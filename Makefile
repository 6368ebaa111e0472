# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# The Nu HTML checker (npm `vnu-jar`), run with Debian's Java by tests/test_html_valid.py.
VNU_VERSION := 26.9.27
VNU := $(VENV)/nu/node_modules/vnu-jar/build/dist/vnu.jar

.PHONY: run kiosk test check lint browser-deps nginx-deps postgres-deps nu-deps clean

# `make run` installs the package and what it needs to run, nothing more.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(STAMP)

# `make test` adds the test extras (pytest, Playwright, ruff, Hypothesis, ...).
$(TEST_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(TEST_STAMP)

run: $(STAMP)
	$(BIN)/kiosk run

kiosk: $(STAMP)
	$(BIN)/kiosk run --kiosk

check: $(STAMP)
	$(BIN)/kiosk check --fatal content

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check kiosk tests benchmarks
	$(BIN)/lint-imports

# The full chromium, and its headless shell that most browser tests run in (tests/browser).
browser-deps:
	@{ command -v chromium && command -v chromium-headless-shell; } >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium and chromium-headless-shell for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO apt-get install -y -qq chromium chromium-headless-shell fonts-dejavu-core; }

nginx-deps:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  echo "Installing Debian's nginx for the hosting test (tests/test_nginx.py)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends nginx; }

# Debian's PostgreSQL for the insights tests on PostgreSQL (tests/postgres.py starts its own
# throwaway server with initdb; nothing runs as a service). Debian keeps initdb off the PATH.
postgres-deps:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  echo "Installing Debian's PostgreSQL for the insights tests (tests/postgres.py)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO apt-get install -y -qq --no-install-recommends postgresql; }

nu-deps: $(VNU)
	@command -v java >/dev/null 2>&1 || { \
	  echo "Installing Debian's Java for the Nu HTML checker (tests/test_html_valid.py)"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO apt-get install -y -qq --no-install-recommends default-jre-headless; }

$(VNU): | $(STAMP)
	@command -v npm >/dev/null 2>&1 || { \
	  echo "Installing Debian's npm to fetch the Nu HTML checker"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends npm; }
	npm install --silent --no-audit --no-fund --prefix $(VENV)/nu vnu-jar@$(VNU_VERSION)

# pytest on every core: pytest-xdist's workers share nothing (each its own ports, folders,
# databases and browser). `make test PYTEST_WORKERS=0` runs it in one process.
PYTEST_WORKERS ?= 4
test: $(TEST_STAMP) browser-deps nginx-deps postgres-deps nu-deps lint check
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
