import math

import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.size(-1)
    # every query against every key by broadcasting: (..., T_q, 1, d) * (..., 1, T_k, d)
    products = queries.unsqueeze(-2) * keys.unsqueeze(-3)
    return products.sum(dim=-1) / math.sqrt(d_k)
