import torch


def context_vector(attn_weights, inputs):
    weights = attn_weights.to(inputs.dtype).view(-1, 1)  # (T, 1): one weight per row
    return torch.sum(weights * inputs, dim=0)
