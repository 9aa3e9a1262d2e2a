"""The grading worker process: the sandbox as ``grade`` starts it, kept warm between jobs."""
