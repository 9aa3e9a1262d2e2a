"""Notebooks the instructor hands out: building the student notebooks from the masters with nbgrader,
translating them, release bundles, variants for tests and demos, and what the student package is
built from (the public checks' known outputs, the Chinese font subset). Reading a notebook safely
is ``autograder.reading``'s."""
