import torch


def context_vector(attn_weights, inputs):
    weighted = inputs * attn_weights.unsqueeze(1)   # (T, d)
    return weighted.mean(dim=0)
