import torch


def context_vector(attn_weights, inputs):
    weighted = attn_weights[:, None] * inputs
    return weighted.sum(dim=1)
