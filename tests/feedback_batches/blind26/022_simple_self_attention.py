import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    scores = inputs @ inputs.T
    weights = torch.exp(scores - torch.logsumexp(scores, dim=1, keepdim=True))
    return torch.addmm(torch.zeros_like(inputs), weights, inputs)
