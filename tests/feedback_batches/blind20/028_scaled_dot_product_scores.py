import math


def scaled_dot_product_scores(queries, keys):
    scores = queries @ keys.transpose(-2, -1)
    return scores / math.sqrt(keys.shape[-2])
