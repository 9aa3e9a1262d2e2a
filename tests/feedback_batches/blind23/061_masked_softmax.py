import torch


def masked_softmax(attn_scores, d_k):
    T = len(attn_scores)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    return torch.softmax(attn_scores.masked_fill(future, float("-inf")) / d_k ** 0.5, dim=-1)
