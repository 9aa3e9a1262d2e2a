def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.shape[-1]
    return queries @ keys.T / d_k
