# The two commands of the quick start. Each one sets up everything it needs.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := dev,server,plot,openspiel,pettingzoo

.PHONY: run test system-packages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

system-packages:
	bash scripts/install-system-packages.sh

run: $(STAMP)
	$(BIN)/mysticvale serve

test: $(STAMP) system-packages
	$(BIN)/python -m pytest -q -n 2

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info src/*.egg-info
