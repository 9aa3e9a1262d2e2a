import torch


def scaled_dot_product_scores(queries, keys):
    scores = queries @ keys.transpose(-2, -1)
    return scores / keys.shape[-2] ** 0.5
