import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query.

    inputs:  (T, d)
    returns (T, d): row i is the context vector of token i
    """
    scores = torch.einsum("qd,kd->qk", inputs, inputs)  # (T, T), query q against key k
    weights = scores.softmax(dim=-1)  # each query's row sums to 1
    return torch.einsum("qk,kd->qd", weights, inputs)  # (T, d)
