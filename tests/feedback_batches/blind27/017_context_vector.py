def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    weighted = attn_weights[:, None] * inputs  # (T, d): every token scaled by its weight
    return weighted.mean(dim=0, keepdim=True)
