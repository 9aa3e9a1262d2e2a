import torch


def masked_softmax(attn_scores, d_k):
    attn_scores = attn_scores.detach()
    T = attn_scores.shape[-1]
    hidden = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=-1)
    masked = attn_scores.masked_fill(hidden, float("-inf"))
    return torch.softmax(masked / T ** 0.5, dim=-1)
