import torch


def masked_softmax(attn_scores, d_k):
    weights = torch.softmax(attn_scores / d_k, dim=-1)
    return torch.tril(weights)
