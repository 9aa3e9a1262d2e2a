import torch


def simple_self_attention(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=0)
    return weights @ inputs
