import math


def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[-2]
    queries /= math.sqrt(d_k)
    return queries @ keys.transpose(0, 1)
