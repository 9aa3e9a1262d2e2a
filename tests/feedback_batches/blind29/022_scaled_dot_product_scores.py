def scaled_dot_product_scores(queries, keys):
    """Q K^T / sqrt(d_k) for any leading dims: movedim swaps the last two dims of keys."""
    inv_sqrt_dk = keys.size(-1) ** -0.5
    return torch.matmul(queries, keys.movedim(-1, -2)) * inv_sqrt_dk
