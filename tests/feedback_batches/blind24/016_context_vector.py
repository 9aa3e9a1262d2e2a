import torch


def context_vector(attn_weights, inputs):
    weights = torch.softmax(attn_weights, dim=0)
    return torch.sum(weights[:, None] * inputs, dim=0)
