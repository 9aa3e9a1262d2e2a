def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = queries.shape[-2]
    queries /= d_k ** 0.5
    return queries @ keys.transpose(0, 1)
