def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.shape[-1]
    scores = queries @ keys.transpose(1, 2)
    scores /= d_k
    return scores
