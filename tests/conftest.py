"""Fixtures shared by the kit's test modules."""

from meta_class import graded  # noqa: F401 - the meta-class, graded once per session
