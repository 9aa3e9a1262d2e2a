import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    d = inputs.shape[1]
    return (inputs.T @ inputs) / d**0.5
