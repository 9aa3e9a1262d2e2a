import torch


def masked_softmax(attn_scores, d_k):
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    T = weights.shape[-1]
    keep = torch.tril(torch.ones(T, T, device=weights.device, dtype=weights.dtype))
    weights = weights * keep
    return weights / weights.sum(dim=-1, keepdim=True)
