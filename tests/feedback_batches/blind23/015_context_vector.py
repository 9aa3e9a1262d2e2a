import torch


def context_vector(attn_weights, inputs):
    weighted = attn_weights.unsqueeze(1) * inputs
    return weighted.sum(dim=0, keepdim=True)
