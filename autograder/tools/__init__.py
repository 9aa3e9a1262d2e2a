"""Instructor and developer tools that are not part of grading: the GPU steps, the feedback batches'
measurement and the translations' review. The benchmarks live outside the package, in tools/."""
