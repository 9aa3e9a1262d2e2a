def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    queries /= keys.shape[-1] ** 0.5  # scale the smaller operand first
    return queries @ keys.transpose(-2, -1)
