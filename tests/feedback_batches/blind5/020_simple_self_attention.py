import math
import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    d = inputs.shape[-1]
    weights = torch.softmax(inputs @ inputs.T / math.sqrt(d), dim=-1)
    return weights @ inputs
