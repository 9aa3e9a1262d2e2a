"""The typed records of a grading run (trusted), at the bottom of the trusted side so that every
layer may use them and none reaches up to ``grading/`` for them: a graded row and its scored tests,
the term's submission time and adjustments, the learning records judged (``results``); the
submissions found (``submissions``); the options, jobs and outcomes grading hands between its
processes (``jobs``); and grades.csv and the results JSON as files (``files``). Plain data, no torch."""
