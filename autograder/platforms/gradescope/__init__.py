"""Gradescope: the autograder zip (``package``), what it runs per submission (``run``), and the
results.json it writes (``results``)."""
