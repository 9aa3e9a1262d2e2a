def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[-1]
    return queries @ keys.T / d_k
