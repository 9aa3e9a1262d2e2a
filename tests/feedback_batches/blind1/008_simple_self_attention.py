import torch


def simple_self_attention(inputs):
    """softmax(X Xᵀ) X with the softmax over each row.

    inputs:  (T, d)
    returns (T, d): row i is the context vector of token i
    """
    attn_scores = inputs @ inputs.T
    attn_weights = torch.softmax(attn_scores, dim=0)
    return attn_weights @ inputs
