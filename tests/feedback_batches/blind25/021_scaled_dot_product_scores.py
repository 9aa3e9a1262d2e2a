def scaled_dot_product_scores(queries, keys):
    inv_sqrt_dk = keys.size(-1) ** -0.5
    # movedim(-1, -2) swaps the last two dims only, so any batch dims stay in front
    return torch.matmul(queries, keys.movedim(-1, -2)) * inv_sqrt_dk
