"""The trusted side of a probe: how the hidden tests reach a student's code (as data only)."""
