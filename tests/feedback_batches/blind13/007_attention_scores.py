import math

import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    scores = inputs @ inputs.T / math.sqrt(inputs.shape[1])  # keep the scores in a sane range
    scores.fill_diagonal_(0.0)  # a token should not score itself
    return scores
