import torch


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    # additive mask: -inf above the diagonal, nothing added elsewhere
    additive = float("-inf") * torch.triu(torch.ones(T, T), diagonal=1)
    return torch.softmax((attn_scores + additive) / d_k ** 0.5, dim=-1)
