import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k)."""
    scores = torch.einsum("qd,kd->qk", queries, keys)
    return scores / math.sqrt(keys.shape[-1])
