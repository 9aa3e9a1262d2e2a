"""The developer's tools, kept out of the installed package (pyproject.toml packages ``autograder``
only): the benchmarks (``make bench``, ``make bench-serve``), the time breakdown, the benchmark's
in-process floor (``inprocess``, the only code that runs student code without a sandbox: never
used to grade) and the throwaway PostgreSQL server the service's tests and benchmark start
(``scratch_postgres``). Run them from the kit's root: ``python -m tools.bench``."""
