# The two commands of the README: `make run` (the service) and `make test` (the whole suite).
# Both create or update the virtualenv first and install what they need.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000

.PHONY: run test bench lint redis-server

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# redis-server must exist for the suite (it starts its own on a free port) and for `make run`
# when no Redis answers; install it from Debian's packages when missing.
redis-server:
	@command -v redis-server >/dev/null || { \
	  echo "installing redis-server"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq redis-server >/dev/null; }

run: $(STAMP) redis-server
	@REDIS_URL="$${REDIS_URL:-redis://127.0.0.1:6379/0}"; \
	if [ -z "$$REDIS_URL_SET" ] && ! redis-cli -u "$$REDIS_URL" ping >/dev/null 2>&1; then \
	  mkdir -p .run; \
	  echo "no Redis answers at $$REDIS_URL: starting a local redis-server"; \
	  redis-server --port 6379 --bind 127.0.0.1 --save "" --appendonly no \
	    --dir .run --daemonize yes --logfile "$$PWD/.run/redis.log"; \
	fi; \
	REDIS_URL="$$REDIS_URL" PORT=$(PORT) $(BIN)/honcho start

test: $(STAMP) redis-server
	$(BIN)/python -m pytest

bench: $(STAMP) redis-server
	$(BIN)/python bench/run.py

lint: $(STAMP)
	$(BIN)/ruff check engine service workers schemas tests bench
