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

.PHONY: test-fast constraints docs docs-screenshots serve lti-demo vendor-css bench-serve fuzz gpu-check gpu-wheels all setup student-package assignments release test demo lint bench clean otter-tests gradescope report gradebook cjk-font

# `make`: set up, then build the student package into dist/.
all: student-package

setup: $(STAMP)

# The versions every setup installs (make setup, CI, the container image) are pinned in constraints.txt;
# `make constraints` refreshes them. torch is pinned here, and the kit's own packages are editable.
CONSTRAINTS := constraints.txt
SETUP_EXTRAS := dev,service,nbgrader

$(STAMP): pyproject.toml autograder/student/pyproject.toml $(CONSTRAINTS)
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is not here: install Python 3.11 (or 3.10 or newer) and run 'make PYTHON=/path/to/python3'"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) torch==2.13.0
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[$(SETUP_EXTRAS)]'
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e autograder/student
	@# The service's browser tests drive Debian's Chromium (Playwright never downloads a browser here),
	@# and its tests start a PostgreSQL server of their own from Debian's packages; systemd's verifier
	@# checks the example units (tests/test_platform_deployment.py).
	@command -v chromium >/dev/null && command -v systemd-analyze >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium postgresql systemd >/dev/null; \
		else echo "The service's tests need Chromium, PostgreSQL and systemd-analyze: install Debian's packages"\
		"'chromium', 'postgresql' and 'systemd' (apt-get install chromium postgresql systemd)"; exit 1; fi; }
	touch $(STAMP)

# constraints.txt afresh: what .[$(SETUP_EXTRAS)] pulls in today, resolved in a scratch venv (without torch,
# pinned above, and the kit's editable packages). Run it to move to newer releases, then make test, and
# commit the file: CI installs exactly what the tests passed with.
CONSTRAINTS_VENV := .constraints-venv
constraints:
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is not here: run 'make constraints PYTHON=/path/to/python3'"; exit 1; }
	rm -rf $(CONSTRAINTS_VENV)
	$(PYTHON) -m venv $(CONSTRAINTS_VENV)
	$(CONSTRAINTS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(CONSTRAINTS_VENV)/bin/python -m pip install --quiet torch==2.13.0
	$(QUIET_BUILD) $(CONSTRAINTS_VENV)/bin/python -m pip install --quiet -e '.[$(SETUP_EXTRAS)]' -e autograder/student
	{ echo "# Written by make constraints: the versions make setup and CI install (pip install -c constraints.txt)."; \
	  $(CONSTRAINTS_VENV)/bin/python -m pip freeze --all --exclude-editable | grep -v -i -E '^(pip|torch)=='; \
	} > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)
	rm -rf $(CONSTRAINTS_VENV)

# The student package (wheel and sdist) into dist/: self-checks, running example, translations.
student-package: setup
	rm -f dist/attention_kit_student-*
	$(BIN)/python -m build --quiet --no-isolation --outdir dist autograder/student
	rm -rf autograder/student/build autograder/student/*.egg-info

# CHECKS_PACKAGE: where the notebooks install the student package from (a wheel file beside the
# notebook by default, a URL, or a package name on an index).
CHECKS_PACKAGE ?=
CHECKS_OPTION := $(if $(CHECKS_PACKAGE),--checks-package '$(CHECKS_PACKAGE)')
# SERVICE_URL: the submission service's address, where the released notebooks' submit() sends them.
SERVICE_URL ?=
SERVICE_OPTION := $(if $(SERVICE_URL),--service '$(SERVICE_URL)')
# make release ANSWERS=1: also each notebook's answers, for students once it is closed (docs/instructors/handing-out.md).
ANSWERS_OPTION := $(if $(filter-out 0,$(ANSWERS)),--answers)

# The public checks' known outputs and the demo cells' hashes first: the student package (and so its wheel) carries them.
assignments: setup
	$(BIN)/python -m autograder.notebooks.known_outputs
	$(BIN)/python -m autograder.notebooks.kit_demos
	$(MAKE) student-package
	$(BIN)/python -m autograder.notebooks.building
	$(BIN)/python -m autograder.notebooks.example_class
	$(BIN)/python -m autograder.platforms.otter_tests

# The oldest Python the kit supports: 3.10, Gradescope's newest image (Ubuntu 22.04).
MIN_PYTHON := 3.10
VERMIN := $(BIN)/vermin --quiet --no-tips --violations --eval-annotations --target=$(MIN_PYTHON)- --exclude str.decode autograder tests tools

# The suite on TEST_WORKERS pytest-xdist workers, each test file kept on one worker (tests/conftest.py).
# `make test` runs every test once: lint, the fast tests (what `make test-fast` runs, so a slip fails
# in minutes), then the rest (slow: notebooks executed, whole classes graded; live servers, Chromium,
# containers), printing the 30 slowest of each.
TEST_WORKERS ?= 2
FAST := not slow and not live and not browser and not container
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder --durations=30
test: setup
	$(BIN)/ruff check .
	$(VERMIN)
	$(PYTEST) -m "$(FAST)"
	$(PYTEST) -m "not ($(FAST))"

# The inner loop, in about two minutes: no live server, browser or container, no notebook executed.
test-fast: setup
	$(BIN)/ruff check .
	$(PYTEST) -m "$(FAST)"

# The submission service (docs/service/index.md): the demo course on http://127.0.0.1:8000,
# its sign-in links printed at the first start; SQLite in service-data/ (as root: /var/lib/attention-kit).
# PORT=... and DATA=... become its --port and --data (each beats the environment and --config).
PORT ?=
DATA ?=
serve: setup
	$(BIN)/python -m autograder serve --demo $(if $(PORT),--port $(PORT)) $(if $(DATA),--data $(DATA))

# LTI 1.3 tried on one machine: the kit's stand-in LMS beside the service, registered with each
# other, with a course of an instructor and two learners; prints the addresses to open. Ctrl-C stops
# both. DATA=... keeps (and reuses) the demo's folder; PORT=... and LMS_PORT=... (default 8000, 8001).
LMS_PORT ?= 8001
lti-demo: setup
	$(BIN)/python -m autograder service lti demo --service-port $(or $(PORT),8000) --platform-port $(LMS_PORT) \
		$(if $(DATA),--folder $(DATA))

# The service under load on loopback: warm upload-to-feedback latency, a 200-student rush, and a
# mixed rush (5 % of it endless loops or memory hogs: the innocent students' latency), with
# WORKERS grading workers on DB (sqlite, or postgres: a scratch PostgreSQL server on loopback);
# then the instructor's class page for 1,000 students x 4 assignments (goal: 300 ms a page).
WORKERS ?= 1
DB ?= sqlite
bench-serve: setup
	$(BIN)/python -m tools.bench_serve --workers $(WORKERS) --database $(DB)
	$(BIN)/python -m tools.bench_gradebook --database $(DB)

# The documentation site, from docs/ into site/ (mkdocs.yml; offline: no fonts or plugins fetch anything).
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The service's screenshots on the documentation's pages (docs/img/), taken by its browser tests.
docs-screenshots: setup
	KIT_DOCS_SCREENSHOTS=$(CURDIR)/docs/img $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_service_browser.py \
		tests/test_service_lti.py::test_an_instructor_adds_an_assignment_by_deep_linking

# The service's stylesheet library, Pico CSS, from npm into autograder/service/web/static/
# (tools/vendor_css.py; its version, license and checksum in vendored.json there).
PICO_VERSION ?= 2.1.1
vendor-css: setup
	$(BIN)/python -m tools.vendor_css $(PICO_VERSION)

demo: setup
	$(BIN)/python -m autograder grade source_data/example_class --out grading-output

lint: setup
	$(BIN)/ruff check .
	$(VERMIN)

bench: setup
	$(BIN)/python -m tools.bench

# Every student-controlled input of the trusted side, fuzzed with Hypothesis for FUZZ_MINUTES (make
# test runs the same tests with a small budget, on the same examples every run); prints the examples
# tried per input.
FUZZ_MINUTES ?= 30
fuzz: setup
	$(BIN)/python tests/fuzz/run_fuzz.py --minutes $(FUZZ_MINUTES)

# The GPU steps (docs/instructors/machines.md): doctor, the example class on cpu, cuda and auto, and the CUDA
# hidden tests on the solutions, the correct idioms and the mutants; logs in gpu-check/.
gpu-check: setup
	$(BIN)/python -m autograder.tools.gpu_check

# For a GPU machine with PyTorch and NumPy but no package index (an air-gapped node): all grading and
# tests/test_on_gpu.py import beyond those and their own dependencies, as wheels in .whl/ for that
# machine's Python (GPU_PYTHON); tests/test_packaging.py checks the list against the installed kit.
# typing-extensions is torch's too, but jsonschema's referencing needs a newer one than an H200 image's system Python had.
GPU_PYTHON ?= 3.12
GPU_WHEELS := attrs contourpy copydetect cycler execnet fastjsonschema fonttools iniconfig jsonschema \
	jsonschema-specifications jupyter-core kiwisolver latex2mathml markdown-it-py matplotlib mdit-py-plugins \
	mdurl nbformat packaging pillow platformdirs pluggy psutil pygments pyparsing pytest pytest-xdist \
	python-dateutil referencing rich rpds-py six tqdm traitlets tzdata typing-extensions \
	requests urllib3 idna certifi charset-normalizer
gpu-wheels: setup
	$(BIN)/python -m pip download --quiet --no-deps --only-binary=:all: --python-version $(GPU_PYTHON) \
		--implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
		--platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl $(GPU_WHEELS)

# Platforms (docs/platforms/). OUT: a grading run's --out folder; COURSE: an nbgrader course.
OUT ?= grading-output
COURSE ?= course

# What an instructor hands out, per language and notebook, in dist/release/ (docs/instructors/handing-out.md).
release: student-package
	$(BIN)/python -m autograder.notebooks.release $(CHECKS_OPTION) $(SERVICE_OPTION) $(ANSWERS_OPTION)

# The Chinese font the student package ships for its figures, from Debian's fonts-wqy-microhei: run
# it when a Chinese text uses a character the font lacks (a kit test says so).
cjk-font: setup
	$(BIN)/python -m autograder.notebooks.cjk_font

otter-tests: setup
	$(BIN)/python -m autograder.platforms.otter_tests

gradescope: setup
	$(BIN)/python -m autograder.platforms.gradescope.package

report: setup
	$(BIN)/python -m autograder report $(OUT)

gradebook: setup
	$(BIN)/python -m autograder gradebook $(OUT) --course $(COURSE)

clean:
	rm -rf $(VENV) course grading-output bench-output build dist site
