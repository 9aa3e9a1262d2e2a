"""Fixtures shared by the kit's test modules."""

import pytest
from meta_class import graded  # noqa: F401 - the meta-class, graded once per session

from autograder.grading import markers
from tools.scratch_postgres import ScratchPostgres


def pytest_configure(config):
    markers.declare(config)  # the stage markers, from the curriculum (--strict-markers is on)


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL server on loopback for the session (``new_database`` per service)."""
    with ScratchPostgres() as server:
        yield server
