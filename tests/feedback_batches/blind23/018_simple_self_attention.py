import torch


def simple_self_attention(inputs):
    d = inputs.shape[1]
    weights = torch.softmax(inputs @ inputs.T / d ** 0.5, dim=-1)
    return inputs.T @ weights.T
