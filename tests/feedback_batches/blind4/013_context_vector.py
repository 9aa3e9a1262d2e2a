import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # columns of inputs.T are the token embeddings: a matrix-vector product mixes them
    return torch.mv(inputs.t(), attn_weights)
