import math

import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    scores = inputs @ inputs.T / math.sqrt(inputs.shape[1])
    weights = torch.softmax(scores, dim=0)
    return weights @ inputs
