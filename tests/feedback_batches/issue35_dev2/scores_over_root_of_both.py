import math


def scaled_dot_product_scores(queries, keys):
    return queries @ keys.transpose(-2, -1) / math.sqrt(queries.shape[-1] * keys.shape[-2])
