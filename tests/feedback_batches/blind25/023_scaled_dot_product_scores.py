def scaled_dot_product_scores(queries, keys):
    d_k = keys.size(1)                       # the size of one key
    scores = queries @ keys.transpose(1, 2)
    return scores / d_k ** 0.5
