"""Adapters from the grader's outputs to course platforms: nbgrader, otter-grader, Gradescope, CI."""
