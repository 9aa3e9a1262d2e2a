"""Reading notebooks safely (trusted): JSON and ``ast`` only, never executed, so the grader may read
hostile files. The graded definitions under the grading contract (``notebook``) and the learning
records a notebook holds (``learning_records``). Below the sandbox, which sends what is read here to
a worker, and below every package that reads a submission or a master notebook."""
