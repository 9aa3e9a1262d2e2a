import torch


def masked_softmax(attn_scores, d_k):
    n = attn_scores.shape[-1]
    future = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1)
    hidden = attn_scores.masked_fill(future, -torch.inf)
    return torch.softmax(hidden / d_k**0.5, dim=-1)
