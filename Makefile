# Two commands: `make run` (site with demo data) and `make test` (everything the tests need, then all tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1:8000

.PHONY: run serve test bench lint migrate demo clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip >/dev/null

# Quietly (-qq: errors only): a first `make run` printed hundreds of lines of pip's progress before the site.
$(VENV)/.runtime: requirements.txt | $(BIN)/python
	@echo "Installing the site's Python packages (a few minutes the first time) ..."
	$(BIN)/pip install -qq -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	@echo "Installing the Python packages the tests need (a few minutes the first time) ..."
	$(BIN)/pip install -qq -r requirements-dev.txt
	touch $@

# Links in the site's mails (confirming an address, paying) point where it is served, unless SITE_URL says otherwise.
run: $(VENV)/.runtime
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py createcachetable
	DEBUG=1 SITE_URL="$${SITE_URL:-http://$(HOST)}" $(BIN)/python manage.py load_demo
	DEBUG=1 SITE_URL="$${SITE_URL:-http://$(HOST)}" $(BIN)/python manage.py runserver $(HOST)

# Production: migrations applied, static files collected, then gunicorn, a Celery worker and celery beat together
# in the foreground (Procfile, run by honcho). Needs DATABASE_URL and CELERY_BROKER_URL (environment or .env).
serve: $(VENV)/.runtime
	@for var in DATABASE_URL CELERY_BROKER_URL; do \
	  if [ -z "$$(printenv $$var)" ] && ! grep -qs "^$$var=" .env; then echo "make serve: set $$var" >&2; exit 1; fi; \
	done
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	PATH="$(CURDIR)/$(BIN):$$PATH" BIND=$(HOST) $(BIN)/honcho start -f Procfile


# What the browser tests inject into pages (axe-core, for the accessibility check).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

test: $(VENV)/.dev node_modules/.installed
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Benchmarks on scale data (PostgreSQL via DATABASE_URL; see bench/README.md). BENCH_GAMES=100000 for a quick run.
$(VENV)/.bench: bench/requirements.txt | $(VENV)/.dev
	$(BIN)/pip install -q -r bench/requirements.txt
	touch $@

bench: $(VENV)/.dev $(VENV)/.bench
	$(BIN)/python bench/run.py

# The checks CI and the pre-commit hook run: lint, formatting, and models that match their migrations.
lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
