import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    attn_scores[..., mask] = 0.0
    return torch.softmax(attn_scores, dim=-1)
