import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    attn_scores.masked_fill_(future, float("-inf"))
    return torch.softmax(attn_scores / d_k, dim=-1)
