import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # the weights may come from a float32 softmax; mix in the precision of the embeddings
    return torch.matmul(attn_weights.to(dtype=inputs.dtype), inputs)
