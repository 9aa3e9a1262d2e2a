import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # (T, 1, d) against (1, T, d): broadcasting gives every pair, vecdot sums the features
    return torch.linalg.vecdot(inputs.unsqueeze(-2), inputs.unsqueeze(-3))
