import torch


def context_vector(attn_weights, inputs):
    weighted = attn_weights * inputs.T  # (d, T): column j scaled by weight j
    return weighted.sum(dim=0)
