import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device).triu(diagonal=1)
    attn_scores.masked_fill_(future, -torch.inf)
    return torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
