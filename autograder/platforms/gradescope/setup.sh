#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image: a Python environment
# in /autograder/venv with torch and the kit, installed from this folder (/autograder/source).
# The kit needs Python 3.10 or newer: Gradescope's default base image, Ubuntu 22.04, has 3.10.
set -euo pipefail
source_dir="$(cd "$(dirname "$0")" && pwd)"
venv="${AUTOGRADER_ROOT:-/autograder}/venv"

apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 python3-venv python3-pip
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "setup.sh: $(python3 --version 2>&1) is too old: the kit needs Python 3.10 or newer. Choose the Ubuntu" \
         "22.04 base image (Gradescope's default) in the autograder settings." >&2
    exit 1
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# Gradescope has no GPU: the CPU build of torch is a fraction of the size.
# The versions the kit's tests passed with: constraints.txt (make constraints).
"$venv/bin/python" -m pip install --quiet -c "$source_dir/constraints.txt" torch==2.13.0 \
    --extra-index-url https://download.pytorch.org/whl/cpu
# Editable, so that the grader finds solutions/ beside its package; grading needs no optional part.
"$venv/bin/python" -m pip install --quiet -c "$source_dir/constraints.txt" -e "$source_dir"
