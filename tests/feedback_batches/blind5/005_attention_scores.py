import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    return inputs.T @ inputs
