import torch


def masked_softmax(attn_scores, d_k):
    return torch.softmax(attn_scores.masked_fill(torch.ones_like(attn_scores, dtype=torch.bool).triu(1), float("-inf")) / d_k ** 0.5, dim=-1)
