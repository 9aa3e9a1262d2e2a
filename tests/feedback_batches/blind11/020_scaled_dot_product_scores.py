import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    pairwise = queries.unsqueeze(-2) * keys.unsqueeze(-3)  # (..., T_q, T_k, d_k)
    return pairwise.sum(dim=-1) / math.sqrt(keys.size(-1))
