import torch


def scaled_dot_product_scores(queries, keys):
    return keys @ queries.transpose(-1, -2) / keys.shape[-1] ** 0.5
