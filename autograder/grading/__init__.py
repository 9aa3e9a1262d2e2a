"""Grading a class (trusted): find the submissions, run the hidden tests over them through the
sandbox, score them, and write the outputs. The typed records it makes are ``autograder.records``'."""
