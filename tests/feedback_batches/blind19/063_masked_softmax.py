import torch


def masked_softmax(attn_scores, d_k):
    size = attn_scores.shape[0]
    future = torch.triu(torch.ones(size, size, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    masked = attn_scores.masked_fill(future, float("-inf"))
    return torch.softmax(masked / d_k ** 0.5, dim=-1)
