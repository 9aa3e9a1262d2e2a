"""Notebooks as files: reading submissions safely (JSON and ``ast`` only), building the student
notebooks from the masters, translating them, and making variants for tests and demos."""
