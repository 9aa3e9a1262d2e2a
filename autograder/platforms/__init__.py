"""Adapters between the grader and course platforms: nbgrader (its command line and gradebook),
otter-grader, Gradescope, CI. The notebooks' builder and release bundles sit above them."""
