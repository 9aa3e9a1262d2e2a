"""Helpers of the hidden tests (trusted): comparing with the reference, building modules on both
sides (and which student parameter holds which reference weight), dropout by invariants, what a
wrong answer's values show (diagnosis), the wrong outputs of known mistakes, what a failed test
says (failures; the student's exception is read by ``autograder.student.reading``, as the public
checks read it) and what became of the notebook's definitions while loading (loading), and what
a test observed besides its verdict."""
