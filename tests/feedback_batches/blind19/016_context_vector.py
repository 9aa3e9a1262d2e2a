import torch


def context_vector(attn_weights, inputs):
    weighted = inputs * attn_weights[:, None]
    return weighted.mean(dim=0).float()
