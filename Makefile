# Every workflow of the kit is a target; each target sets up what it needs.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# nbgrader calls alembic through PATH when it opens its gradebook.
export PATH := $(CURDIR)/$(BIN):$(PATH)
STAMP := $(VENV)/.installed
# setuptools explains editable installs in a 10-line UserWarning on every install; our packages'
# own configuration is warning-free (tests/test_student_package.py checks the build).
QUIET_BUILD := PYTHONWARNINGS=ignore::UserWarning

.PHONY: all setup student-package assignments release test demo lint bench clean otter-tests gradescope report gradebook

# `make`: set up, then build the student package into dist/.
all: student-package

setup: $(STAMP)

$(STAMP): pyproject.toml autograder/student/pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is not here: install Python 3.11 (or 3.10 or newer) and run 'make PYTHON=/path/to/python3'"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e '.[dev]'
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e autograder/student
	touch $(STAMP)

# The student package (wheel and sdist) into dist/: self-checks, running example, translations.
student-package: setup
	rm -f dist/attention_kit_student-*
	$(BIN)/python -m build --quiet --no-isolation --outdir dist autograder/student
	rm -rf autograder/student/build autograder/student/*.egg-info

# CHECKS_PACKAGE: where the notebooks install the student package from (a wheel file beside the
# notebook by default, a URL, or a package name on an index).
CHECKS_PACKAGE ?=
CHECKS_OPTION := $(if $(CHECKS_PACKAGE),--checks-package '$(CHECKS_PACKAGE)')

assignments: student-package
	$(BIN)/python -m autograder.notebooks.building
	$(BIN)/python -m autograder.notebooks.example_class
	$(BIN)/python -m autograder.platforms.otter_tests

# The oldest Python the kit supports: 3.10, Gradescope's newest image (Ubuntu 22.04).
MIN_PYTHON := 3.10
VERMIN := $(BIN)/vermin --quiet --no-tips --violations --eval-annotations --target=$(MIN_PYTHON)- --exclude str.decode autograder tests

test: setup
	$(BIN)/ruff check .
	$(VERMIN)
	$(BIN)/python -m pytest

demo: setup
	$(BIN)/python -m autograder grade source_data/example_class --out grading-output

lint: setup
	$(BIN)/ruff check .
	$(VERMIN)

bench: setup
	$(BIN)/python -m autograder.tools.bench

# Platforms (README.md, "Platforms"). OUT: a grading run's --out folder; COURSE: an nbgrader course.
OUT ?= grading-output
COURSE ?= course

# What an instructor hands out, per language and notebook, in dist/release/ (README.md, "Platforms").
release: student-package
	$(BIN)/python -m autograder.notebooks.release $(CHECKS_OPTION)

otter-tests: setup
	$(BIN)/python -m autograder.platforms.otter_tests

gradescope: setup
	$(BIN)/python -m autograder.platforms.gradescope.package

report: setup
	$(BIN)/python -m autograder report $(OUT)

gradebook: setup
	$(BIN)/python -m autograder gradebook $(OUT) --course $(COURSE)

clean:
	rm -rf $(VENV) course grading-output bench-output build dist
