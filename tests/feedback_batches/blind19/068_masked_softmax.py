import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool))
    scores = attn_scores.masked_fill(hidden, float("-inf"))
    return torch.softmax(scores / d_k ** 0.5, dim=-1)
