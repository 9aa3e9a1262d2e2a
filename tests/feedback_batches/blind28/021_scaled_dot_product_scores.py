def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    keys_t = keys.movedim(-1, -2)  # (..., d_k, T_k)
    return torch.matmul(queries, keys_t) * keys.size(-1) ** -0.5
