import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.size(-1)
    # (..., T_q, 1, d_k) against (..., 1, T_k, d_k): every query-key pair, batch dims untouched
    pairs = torch.linalg.vecdot(queries.unsqueeze(-2), keys.unsqueeze(-3))  # (..., T_q, T_k)
    return pairs / math.sqrt(d_k)
