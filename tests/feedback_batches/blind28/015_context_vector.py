def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings."""
    attn_weights = attn_weights / attn_weights.sum()  # make sure they sum to 1
    weighted = attn_weights[:, None] * inputs  # (T, d)
    return weighted.mean(dim=0)
