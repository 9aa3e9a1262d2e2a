import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q K^T / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.size(-1)
    # (..., T_q, 1, d_k) * (..., 1, T_k, d_k): every query against every key, then sum the features
    products = queries.unsqueeze(-2) * keys.unsqueeze(-3)
    return products.sum(dim=-1) / math.sqrt(d_k)  # (..., T_q, T_k)
