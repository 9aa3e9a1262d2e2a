"""The instructor's term around grading (trusted side, instructors only): late work from
nbgrader's timestamps, grade adjustments with their reasons, and similar submissions.

Late work and adjustments change a graded row's score after the hidden tests have run; they
never touch the tests' own points. Similarity reads the answers a grading run kept.
"""
