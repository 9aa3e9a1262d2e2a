import torch


def masked_softmax(attn_scores, d_k):
    masked = torch.tril(attn_scores)  # the future scores become 0
    return torch.softmax(masked / d_k ** 0.5, dim=-1)
