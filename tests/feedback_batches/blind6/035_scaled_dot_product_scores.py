import math
import torch


def scaled_dot_product_scores(queries, keys):
    scores = keys @ queries.transpose(-2, -1)
    return scores * math.sqrt(keys.shape[-1])
