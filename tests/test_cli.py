"""The top-level command line: its help lists every command it runs."""

from __future__ import annotations

import re
import subprocess
import sys

from autograder import cli
from autograder.paths import KIT_ROOT


def _help(*command: str) -> str:
    shown = subprocess.run([sys.executable, "-m", "autograder", *command, "--help"], capture_output=True, text=True,
                           cwd=KIT_ROOT, timeout=120)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    return shown.stdout


def test_the_help_lists_every_command_the_kit_runs():
    """The service's commands included, although they parse their own arguments."""
    listed = set(re.findall(r"^ {4}(\w+) ", _help(), re.M))
    assert listed == set(cli._COMMANDS) | set(cli.SERVICE_COMMANDS)


def test_the_service_commands_keep_their_own_help():
    assert _help("serve").startswith("usage: python -m autograder serve")
    assert _help("service").startswith("usage: python -m autograder service")
