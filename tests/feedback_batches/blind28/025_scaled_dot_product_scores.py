def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scores = torch.bmm(queries, keys.transpose(1, 2))
    return scores / keys.shape[-1] ** 0.5
