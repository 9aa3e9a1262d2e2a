import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = queries.shape[1]
    queries /= math.sqrt(d_k)
    return torch.matmul(queries, keys.transpose(-1, -2))
