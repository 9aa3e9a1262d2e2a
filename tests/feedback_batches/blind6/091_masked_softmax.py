import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    masked = attn_scores.masked_fill(mask, float("-inf"))
    return torch.softmax(masked / d_k ** 1/2, dim=-1)
