import torch


def simple_self_attention(inputs):
    scores = inputs @ inputs.T
    weights = torch.exp(scores - scores.amax(dim=1, keepdim=True))
    weights = weights / weights.sum(dim=1, keepdim=True)
    return weights @ inputs
