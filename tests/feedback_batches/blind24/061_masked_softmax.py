import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T), diagonal=1).bool()
    attn_scores.masked_fill_(mask, 0.0)
    return torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
