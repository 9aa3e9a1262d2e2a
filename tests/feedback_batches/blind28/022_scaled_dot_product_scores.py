def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    pairs = torch.linalg.vecdot(queries.unsqueeze(-2), keys.unsqueeze(-3))  # (..., T_q, T_k)
    return pairs / keys.shape[-1] ** 0.5
