def scaled_dot_product_scores(queries, keys):
    return queries @ keys.T / keys.shape[-1] ** 0.5
