def context_vector(attn_weights, inputs):
    """Weighted sum of the token embeddings.

    attn_weights: (T,) one weight per token, summing to 1
    inputs:       (T, d)
    returns (d,)
    """
    return (attn_weights.unsqueeze(0) * inputs.T).sum(dim=0)  # (d, T) weighted, then added up
