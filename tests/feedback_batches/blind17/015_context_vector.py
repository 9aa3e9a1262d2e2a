import torch


def context_vector(attn_weights, inputs):
    weighted = inputs.T * attn_weights  # (d, T): each token's column times its weight
    return weighted.sum(dim=0)
