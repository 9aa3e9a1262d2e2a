import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    ones = torch.ones(T, T, dtype=torch.bool, device=attn_scores.device)
    hidden = torch.tril(ones, diagonal=-1)
    scaled = (attn_scores / d_k ** 0.5).masked_fill(hidden, float("-inf"))
    return torch.softmax(scaled, dim=-1).float()
