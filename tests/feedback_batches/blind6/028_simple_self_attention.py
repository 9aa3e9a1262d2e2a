import torch


def simple_self_attention(inputs):
    scores = inputs @ inputs.T
    weights = torch.softmax(scores / inputs.shape[-1] ** 0.5, dim=-1)
    return weights @ inputs
