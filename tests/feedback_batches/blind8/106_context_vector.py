import torch


def context_vector(attn_weights, inputs):
    return torch.einsum("t,td->d", attn_weights, inputs)
