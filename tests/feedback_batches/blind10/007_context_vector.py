import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # bring the weights to the embeddings' dtype/device first, so the result
    # always has the dtype and device of `inputs`
    w = attn_weights.to(dtype=inputs.dtype, device=inputs.device)
    return torch.einsum("t,td->d", w, inputs)
