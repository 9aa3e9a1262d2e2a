import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device))
    scaled = attn_scores.masked_fill(hidden, -torch.inf) / attn_scores.shape[-1] ** 0.5
    return torch.softmax(scaled, dim=-1)
