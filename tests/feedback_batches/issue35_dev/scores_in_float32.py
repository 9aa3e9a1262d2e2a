import math


def scaled_dot_product_scores(queries, keys):
    scores = queries.float() @ keys.float().transpose(-2, -1) / math.sqrt(keys.shape[-1])
    return scores.to(queries.dtype)
