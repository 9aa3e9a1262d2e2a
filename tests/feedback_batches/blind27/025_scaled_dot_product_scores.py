def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    num_tokens = queries.shape[-2]
    queries /= num_tokens ** 0.5  # scale once, before the product (cheaper)
    return queries @ keys.transpose(-2, -1)
