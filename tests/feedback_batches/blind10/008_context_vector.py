import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # make sure the weights really are a probability distribution
    attn_weights = torch.softmax(attn_weights, dim=0)
    return attn_weights @ inputs
