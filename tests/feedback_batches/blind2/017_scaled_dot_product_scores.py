import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[-1]
    attn_scores = queries @ keys.transpose(1, 2)
    return attn_scores / d_k ** 0.5
