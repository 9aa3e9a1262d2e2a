import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = queries.shape[0]
    return queries @ keys.T / math.sqrt(d_k)
