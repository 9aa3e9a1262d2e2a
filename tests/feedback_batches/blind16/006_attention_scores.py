import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    d = inputs.shape[-1]
    scores = inputs @ inputs.T / d ** 0.5
    return torch.softmax(scores, dim=-1)
