import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T), diagonal=1).bool()
    masked = attn_scores.masked_fill(future, float("-inf"))
    return torch.softmax(masked / d_k, dim=-1)
