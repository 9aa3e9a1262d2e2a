import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    # pair every query (axis -2 after unsqueeze) with every key (axis -3), multiply, sum the features
    products = queries.unsqueeze(-2) * keys.unsqueeze(-3)  # (..., T_q, T_k, d_k)
    return products.sum(dim=-1) / math.sqrt(keys.size(-1))
