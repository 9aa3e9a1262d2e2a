import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    keep = torch.tril(torch.ones(T, T, device=attn_scores.device, dtype=attn_scores.dtype))
    weights = weights * keep
    return weights / weights.sum(dim=-1, keepdim=True)
