# Two entry points for a fresh machine: `make play` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench figures core-only golden value clean chromium haproxy screenshots bench-page

# --no-compile: pip byte-compiled every installed module (Ray's and Matplotlib's thousands among them),
# 36 s of the 16 s + 36 s install on this machine; a module is compiled instead when it is first imported
# (and cached by `make test`, below).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev,server,tui,plot,rl,openspiel,ray,postgres]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/spite serve

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
		|| echo "Debian's chromium could not be installed: the browser tests will be skipped"

haproxy:
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy \
		|| (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null) \
		|| echo "Debian's haproxy could not be installed: the multi-worker tests will be skipped"

# The suite on several xdist workers: on this two-core machine three ran a fresh clone's `make test`
# in 10 min 11 s and 10 min 48 s (2026-12-07; README, "Tests"): many tests wait on the clock (a pace, a real-time game,
# a takeover, a lease), so two workers left a fifth of the CPU idle. Four were no faster
# (9 min 53 s to 10 min 44 s in four runs) and starved the browser and timing tests of CPU, so that some failed for
# it (`make test TEST_WORKERS=2` to try another number; TEST_WORKERS=1 runs it in one process).
# worksteal: a worker that runs out takes tests from a busy one.
TEST_WORKERS ?= 3

# Bytecode caches written even where PYTHONDONTWRITEBYTECODE is set (this machine sets it): the suite
# starts well over a hundred Python processes (servers, their workers, the CLI), and without a cache
# each one compiled spite's modules again, about 0.15 CPU-s for the server's imports alone.
test: $(STAMP) lint chromium haproxy
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal --durations=25

bench: $(STAMP)
	$(BIN)/spite bench engine --seconds 10 --baseline src/spite/malice/bench/bare_loop.py

# What the browser page costs to draw a move, on the same games every time (README, "The browser page")
bench-page: $(STAMP) chromium
	$(BIN)/python tools/bench_page.py

# The README's quick figures (start-up, the research environments, a game review), measured again by the
# commands their tables name and rewritten between their markers; the strength and server tables take
# hours and are run by hand (README, "Figures").
figures: $(STAMP)
	$(BIN)/spite bench figures README.md

# The core install alone (pip install spite, no extras) in a fresh venv: every computer level plays.
core-only:
	.ci/core-only

golden: $(STAMP)
	$(BIN)/python tests/golden/make_golden.py

# The shipped values, the classic rules' and the match game's (docs/bots.md, "Training"): for each a first
# value fitted to games of the heuristics, then the value fitted to the learned bot's own games with that first value.
value: $(STAMP)
	$(BIN)/spite train --games 600 --seed 1 --jobs 2 --out build/value/v0.json
	$(BIN)/spite train --bots learned:700,weights=build/value/v0.json --games 2000 --seed 11 --jobs 2 \
		--out src/spite/malice/bots/learned_value.json --plot docs/figures/learned-value-curve.png
	$(BIN)/spite train --preset match --games 3000 --seed 1 --jobs 2 --out build/value/match-v0.json
	$(BIN)/spite train --preset match --bots learned:700,weights=build/value/match-v0.json --games 2000 --seed 11 \
		--jobs 2 --out src/spite/malice/bots/learned_value_match.json --plot docs/figures/learned-value-curve-match.png

# Every page and table of the browser page at 1366×768 and 390×844, in English and German, from seeded
# games, as WebP in docs/screenshots/ (tools/screenshots.py; docs/web.md, "Screenshots").
screenshots: $(STAMP) chromium
	$(BIN)/python tools/screenshots.py --out docs/screenshots

clean:
	rm -rf $(VENV) build src/*.egg-info
