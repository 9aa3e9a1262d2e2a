import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q K^T / sqrt(d_k), for any leading batch dimensions."""
    n = queries.shape[-2]
    return queries @ keys.transpose(0, 1) / math.sqrt(n)
