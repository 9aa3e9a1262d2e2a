"""Helpers of the hidden tests (trusted): comparing with the reference, building modules on both
sides (and which student parameter holds which reference weight), dropout by invariants, the
wrong outputs of known mistakes, and what a student's exception points to."""
