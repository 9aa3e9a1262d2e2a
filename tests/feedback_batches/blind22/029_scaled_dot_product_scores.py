import math

import torch


def scaled_dot_product_scores(queries, keys):
    num_keys = keys.shape[-2]
    queries /= math.sqrt(num_keys)
    scores = queries @ keys.transpose(-2, -1)
    return scores.float()
