def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    # movedim swaps the last two dims only; multiply by d_k ** -0.5
    return torch.matmul(queries, keys.movedim(-1, -2)) * keys.size(-1) ** -0.5
