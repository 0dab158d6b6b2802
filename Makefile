# The two commands of the quick start. Each one sets up everything it needs.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := fast,dev,server,plot,openspiel,pettingzoo

.PHONY: run test system-packages compile clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

system-packages:
	bash scripts/install-system-packages.sh

# The hot modules compiled with Cython (about 1.5x faster; optional: without a compiler the
# game runs from its sources). Rebuilt when a source changes; see scripts/compile.py.
COMPILED_STAMP := build/compiled.stamp
$(COMPILED_STAMP): $(STAMP) $(shell find src/mysticvale -name '*.py')
	$(BIN)/python scripts/compile.py
	mkdir -p build && touch $(COMPILED_STAMP)

compile: $(COMPILED_STAMP)

run: $(STAMP) $(COMPILED_STAMP)
	$(BIN)/mysticvale serve

test: $(STAMP) system-packages $(COMPILED_STAMP)
	$(BIN)/python -m pytest -q -n 2

clean:
	find src -name '*.so' -delete
	rm -rf $(VENV) .pytest_cache build *.egg-info src/*.egg-info
