import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    gram = inputs.T @ inputs
    return torch.tril(gram)
