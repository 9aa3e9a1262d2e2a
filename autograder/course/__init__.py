"""The course as the instructor owns it: where its files are, the rubric, and the reference
implementation taken from the master notebooks (trusted; never seen by student code)."""
