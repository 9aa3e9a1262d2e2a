import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scale = 1 / math.sqrt(queries.shape[1])
    scores = torch.bmm(queries, keys.transpose(1, 2))
    return scores.mul_(scale).softmax(dim=-1)
