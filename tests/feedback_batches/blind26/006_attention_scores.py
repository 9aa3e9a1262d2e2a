import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    scores = inputs @ inputs.T
    return torch.softmax(scores, dim=-1)
