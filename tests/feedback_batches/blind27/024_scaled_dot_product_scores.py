def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scores = queries @ keys.T
    return scores / keys.shape[-1]
