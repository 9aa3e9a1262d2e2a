import torch


def simple_self_attention(inputs):
    """softmax(X Xᵀ) X with the softmax over each row.

    inputs:  (T, d)
    returns (T, d): row i is the context vector of token i
    """
    attn_scores = torch.matmul(inputs, inputs.transpose(0, 1))
    attn_weights = torch.softmax(attn_scores, dim=-1)
    context = torch.matmul(attn_weights, attn_scores)
    return context
