import torch


def simple_self_attention(inputs):
    scores = inputs @ inputs.T / inputs.shape[-1] ** 0.5
    weights = torch.softmax(scores, dim=-1)
    return weights @ inputs
