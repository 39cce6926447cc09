# The two commands of the README: `make run` (the service) and `make test` (the whole suite).
# Both create or update the virtualenv first and install what they need.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
# The Procfile's commands (gunicorn, python) are this virtualenv's.
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: run test test-engine bench lint redis-server chromium

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# A Debian package, installed when its command is missing: redis-server for the suite (it starts
# its own on a free port) and for `make run` when no Redis answers; chromium for the browser
# tests (Playwright drives Debian's chromium: it cannot download a browser of its own here).
apt_install = command -v $(1) >/dev/null || { \
	  echo "installing $(1)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(1) >/dev/null; }

redis-server:
	@$(call apt_install,redis-server)

chromium:
	@$(call apt_install,chromium)

# With REDIS_URL unset, use 127.0.0.1:6379, starting a local redis-server if nothing answers.
run: $(STAMP) redis-server
	@if [ -z "$$REDIS_URL" ]; then \
	  export REDIS_URL=redis://127.0.0.1:6379/0; \
	  if ! $(BIN)/python -c "import redis; redis.Redis(socket_timeout=1).ping()" 2>/dev/null; then \
	    mkdir -p .run; echo "nothing answers on 127.0.0.1:6379: starting a local redis-server"; \
	    redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no \
	      --dir "$$PWD/.run" --daemonize yes --logfile "$$PWD/.run/redis.log"; \
	  fi; \
	fi; \
	exec $(BIN)/honcho start -p $(PORT) -c web=1,worker=2

test: $(STAMP) redis-server chromium
	$(BIN)/python -m pytest

# The rules alone (the engine's tests and the golden replays): no Redis, no workers.
test-engine: $(STAMP)
	$(BIN)/python -m pytest tests/engine tests/golden

bench: $(STAMP) redis-server
	$(BIN)/python -m bench.run

lint: $(STAMP)
	$(BIN)/ruff check engine store service workers schemas tests bench
