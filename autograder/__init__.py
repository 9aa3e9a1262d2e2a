"""The attention kit's grading engine, hidden tests and student-side helpers."""
