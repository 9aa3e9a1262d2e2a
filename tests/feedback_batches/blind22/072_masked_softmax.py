import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    weights = torch.softmax(attn_scores.masked_fill(future, -torch.inf), dim=-1)
    return weights / d_k ** 0.5
