"""Helpers of the hidden tests (trusted): comparing with the reference, building modules on both
sides, and the wrong outputs of known mistakes."""
