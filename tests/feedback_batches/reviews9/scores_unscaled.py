def scaled_dot_product_scores(queries, keys):
    return queries @ keys.transpose(-2, -1)
