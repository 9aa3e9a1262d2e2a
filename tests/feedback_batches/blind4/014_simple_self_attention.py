import torch


def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query.

    inputs:  (T, d)
    returns (T, d): row i is the context vector of token i
    """
    attn_scores = inputs @ inputs.T  # (T, T)
    attn_weights = attn_scores / attn_scores.sum(dim=-1, keepdim=True)  # each row sums to 1
    return attn_weights @ inputs
