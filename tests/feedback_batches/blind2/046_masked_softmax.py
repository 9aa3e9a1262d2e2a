import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    mask = torch.triu(torch.ones(T, T, device=attn_scores.device), diagonal=1)
    attn_scores = attn_scores.masked_fill(mask == 0, float("-inf"))
    return torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
