# The two commands of the README: `make run` (the service) and `make test` (the whole suite).
# Both create or update the virtualenv first and install what they need.

# The virtualenv's interpreter: the system's CPython when it is 3.11 or newer and can make a
# virtualenv, else the first python3 on the PATH. Debian builds its CPython with profile-guided
# and link-time optimization; pyenv's default build has neither, and folded a game's log and
# answered a Flask request 15% slower on the same machine (docs/design.md).
PYTHON ?= $(shell /usr/bin/python3 -c 'import ensurepip, sys; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && echo /usr/bin/python3 || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run` needs only what running takes (the `run` extra), not the test and lint tools.
RUN_STAMP := $(VENV)/.installed-run
PORT ?= 8000
# Where `make run` serves: every interface by default; 127.0.0.1 for this machine alone.
BIND_ADDRESS ?= 0.0.0.0
# The Procfile's commands (gunicorn, python) are this virtualenv's.
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: run redis stop-redis test test-engine screenshots bench lint redis-server chromium valgrind node

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[run]'
	touch $(RUN_STAMP)

# A Debian package, installed when its command is missing: redis-server for the suite (it starts
# its own on a free port) and for `make run`'s own Redis; chromium for the browser
# tests (Playwright drives Debian's chromium: it cannot download a browser of its own here);
# valgrind for the smoke of `bench.instructions`.
# $(1) the command, $(2) its package when named otherwise.
apt_install = command -v $(1) >/dev/null || { \
	  echo "installing $(or $(2),$(1))"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(or $(2),$(1)) >/dev/null; }

redis-server:
	@$(call apt_install,redis-server)

chromium:
	@$(call apt_install,chromium)

# node runs the pages' sentence renderer beside the command line's (tests/golden/test_sentences.py).
node:
	@$(call apt_install,node,nodejs)

valgrind:
	@$(call apt_install,valgrind)

# The project's own Redis: durable (redis.conf: an append-only file), its data in
# .run/redis/<port>/ and on a port of its own, so that neither a Redis already on 6379 nor a
# restart loses a game, and two instances of one checkout (`make run REDIS_PORT=...`) share no
# file: neither loads the other's games nor removes its pid file. Started once and left running
# (`make stop-redis` stops it).
REDIS_PORT ?= 6390
REDIS_DIR := $(abspath .run/redis/$(REDIS_PORT))
# Where every port's data lay before: the default port's games are moved from there once.
OLD_REDIS_DIR := $(abspath .run/redis)

redis: redis-server
	@if [ "$(REDIS_PORT)" = 6390 ] && [ -d $(OLD_REDIS_DIR)/appendonlydir ] \
	    && [ ! -e $(REDIS_DIR)/appendonlydir ] && ! redis-cli -p 6390 ping >/dev/null 2>&1; then \
	  echo "moving the games in .run/redis/ to .run/redis/6390/ (a folder per port now)"; \
	  mkdir -p $(REDIS_DIR) && mv $(OLD_REDIS_DIR)/appendonlydir $(REDIS_DIR)/; \
	fi
	@mkdir -p $(REDIS_DIR)
	@redis-cli -p $(REDIS_PORT) ping >/dev/null 2>&1 || { \
	  echo "starting the project's Redis on 127.0.0.1:$(REDIS_PORT), data in .run/redis/$(REDIS_PORT)/"; \
	  redis-server redis.conf --port $(REDIS_PORT) --dir $(REDIS_DIR) --daemonize yes \
	    --pidfile $(REDIS_DIR)/redis.pid --logfile $(REDIS_DIR)/redis.log; }

# SHUTDOWN writes the append-only file out before Redis exits.
stop-redis:
	@redis-cli -p $(REDIS_PORT) shutdown 2>/dev/null || echo "no Redis answers on $(REDIS_PORT)"

# With REDIS_URL unset, the project's own Redis (above). Receipts are signed with the key in
# .run/redis/<port>/ (made on the first start, mode 0600; service/signing.py) unless
# TABLELOG_SIGNING_KEY_FILE or TABLELOG_SIGNING_KEY names another. Every process writes its
# metrics in one folder, its metrics files removed first (.run/metrics/<port>/, unless
# PROMETHEUS_MULTIPROC_DIR names another), so that /metrics counts them all; their log lines are readable ones when
# make runs in a terminal (honcho's pipes are none), JSON lines otherwise.
METRICS_DIR := $(abspath .run/metrics/$(PORT))

run: $(RUN_STAMP) redis-server
	@if [ -z "$$REDIS_URL" ]; then \
	  $(MAKE) --no-print-directory redis && export REDIS_URL=redis://127.0.0.1:$(REDIS_PORT)/0; \
	fi; \
	if [ -z "$$TABLELOG_SIGNING_KEY_FILE$$TABLELOG_SIGNING_KEY" ]; then \
	  export TABLELOG_SIGNING_KEY_FILE=$$($(BIN)/python -m service.signing create $(REDIS_DIR)); \
	fi; \
	export PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(METRICS_DIR)}; \
	mkdir -p "$$PROMETHEUS_MULTIPROC_DIR" && rm -f "$$PROMETHEUS_MULTIPROC_DIR"/*.db; \
	if [ -t 2 ] && [ -z "$$TABLELOG_LOG_FORMAT" ]; then export TABLELOG_LOG_FORMAT=text; fi; \
	export BIND_ADDRESS=$(BIND_ADDRESS); \
	exec $(BIN)/honcho start -p $(PORT) -c web=1,worker=2

test: $(STAMP) redis-server chromium valgrind node
	$(BIN)/python -m pytest

# The README's screenshots, taken again by the browser tests of the pages' layout.
screenshots: $(STAMP) redis-server chromium
	TABLELOG_SCREENSHOTS=1 $(BIN)/python -m pytest tests/browser/test_layout.py

# The rules alone (the engine's tests, its purity and the golden replays): no Redis, no workers.
test-engine: $(STAMP)
	$(BIN)/python -m pytest tests/engine tests/golden tests/test_purity.py

bench: $(STAMP) redis-server
	$(BIN)/python -m bench.run

lint: $(STAMP)
	$(BIN)/ruff check engine telemetry store service workers schemas cli tests bench
