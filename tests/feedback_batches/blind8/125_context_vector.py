import torch


def context_vector(attn_weights, inputs):
    return (attn_weights * inputs).sum(dim=0)
