import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    hidden = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    scaled = attn_scores.masked_fill(hidden, -torch.inf) / d_k ** 0.5
    return torch.softmax(scaled, dim=-1, dtype=torch.float32)
