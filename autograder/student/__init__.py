"""The student side: what a notebook imports, shipped alone as the student package.

The public self-checks (``check("<stage>")``), the running example, the curriculum's stage
names and the student-facing translations. Nothing here imports grading code, reads the
solutions or holds reference code: this folder is the whole student package.
"""
