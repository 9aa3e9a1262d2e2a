import torch


def masked_softmax(attn_scores, d_k):
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    T = weights.shape[-1]
    return weights * torch.tril(torch.ones(T, T, dtype=weights.dtype, device=weights.device))
