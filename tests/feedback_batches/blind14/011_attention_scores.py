import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    # entry [i, j]: how close token i is to token j
    return torch.cdist(inputs, inputs)  # (T, T)
