import torch


def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    # (T, 1) against (T, d): multiply and add up along the tokens, dim 0
    return torch.linalg.vecdot(attn_weights.unsqueeze(-1), inputs, dim=0)
