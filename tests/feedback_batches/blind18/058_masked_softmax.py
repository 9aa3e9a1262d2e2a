import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    keep = torch.tril(torch.ones(T, T))
    return torch.softmax(attn_scores * keep / d_k ** 0.5, dim=-1)
