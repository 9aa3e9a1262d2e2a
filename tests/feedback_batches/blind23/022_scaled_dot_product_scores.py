import math
import torch


def scaled_dot_product_scores(queries, keys):
    queries /= math.sqrt(queries.shape[1])
    return queries @ keys.transpose(-2, -1)
