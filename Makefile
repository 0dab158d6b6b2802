# The two commands of the quick start. Each one sets up everything it needs.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := fast,dev,server,plot,openspiel,pettingzoo
# Extras only the tests need (Ray for the cluster backend: a large wheel the server does not use;
# scikit-learn to train the value network).
TEST_EXTRAS := cluster,learn
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test system-packages compile native native-check clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS),$(TEST_EXTRAS)]'
	touch $(TEST_STAMP)

system-packages:
	bash scripts/install-system-packages.sh

# The hot modules compiled with Cython (about 1.5x faster; optional: without a compiler the
# game runs from its sources). Rebuilt when a source changes; see scripts/compile.py.
COMPILED_STAMP := build/compiled.stamp
$(COMPILED_STAMP): $(STAMP) $(shell find src/mysticvale -name '*.py')
	$(BIN)/python scripts/compile.py
	mkdir -p build && touch $(COMPILED_STAMP)

compile: $(COMPILED_STAMP)

# The native core (native/: the engine's twin in Rust under PyO3), built in release mode in
# place (src/mysticvale/_native*.so) where cargo exists; without cargo the game runs on the
# Python engine and these targets say so in one line.  `make test` then also checks the
# crate (rustfmt, clippy, its own tests under cargo-nextest), and tests/native/ must run.
CARGO := $(shell command -v cargo 2>/dev/null)
NATIVE_STAMP := build/native.stamp
NATIVE_ENV := VIRTUAL_ENV=$(abspath $(VENV)) PYO3_PYTHON=$(abspath $(BIN))/python
ifneq ($(CARGO),)
$(NATIVE_STAMP): $(STAMP) native/Cargo.toml native/Cargo.lock $(shell find native/src -name '*.rs' 2>/dev/null) \
		src/mysticvale/bots/data/value_net.json
	$(NATIVE_ENV) $(BIN)/maturin develop --release --skip-install
	mkdir -p build && touch $(NATIVE_STAMP)

native: $(NATIVE_STAMP)

native-check: $(NATIVE_STAMP)
	cd native && cargo fmt --all --check
	cd native && $(NATIVE_ENV) cargo clippy --quiet --all-targets --all-features -- -D warnings
	cd native && cargo nextest run --no-fail-fast --status-level fail
else
native native-check:
	@echo "cargo not found: the native core was not built (the game runs on the Python engine)"
endif

run: $(STAMP) $(COMPILED_STAMP) native
	$(BIN)/mysticvale serve

test: $(STAMP) $(TEST_STAMP) system-packages $(COMPILED_STAMP) native-check
	$(BIN)/python -m pytest -q -n 2

clean:
	find src -name '*.so' -delete
	rm -rf $(VENV) .pytest_cache build *.egg-info src/*.egg-info
