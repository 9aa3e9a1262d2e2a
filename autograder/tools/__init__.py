"""Instructor and developer tools that are not part of grading (the benchmark)."""
