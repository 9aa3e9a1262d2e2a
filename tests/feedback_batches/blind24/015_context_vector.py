import torch


def context_vector(attn_weights, inputs):
    return (inputs * attn_weights).sum(dim=0)
