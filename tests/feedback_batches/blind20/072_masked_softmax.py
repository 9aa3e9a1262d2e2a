import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
    visible = torch.tril(torch.ones(T, T, dtype=weights.dtype, device=weights.device))
    weights = weights * visible
    return weights / weights.sum(dim=-1, keepdim=True)
