import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    past = torch.tril(torch.ones(T, T, dtype=attn_scores.dtype, device=attn_scores.device), diagonal=-1)
    weights = torch.softmax(attn_scores * d_k ** 0.5, dim=-1)
    weights = weights * (1 - past)
    return weights / weights.sum(dim=-1, keepdim=True)
