import torch


def attention_scores(inputs):
    """Scores of every token (as query) against every token, (T, d) -> (T, T)."""
    return torch.einsum("id,jd->ij", inputs, inputs)
