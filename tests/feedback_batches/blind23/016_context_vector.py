import torch


def context_vector(attn_weights, inputs):
    return (attn_weights[:, None] * inputs).mean(dim=0)
