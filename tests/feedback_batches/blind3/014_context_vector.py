import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # z = a_0 x_0 + a_1 x_1 + ... accumulated token by token
    context = inputs[0]
    context *= attn_weights[0]
    for i in range(1, inputs.shape[0]):
        context += attn_weights[i] * inputs[i]
    return context
