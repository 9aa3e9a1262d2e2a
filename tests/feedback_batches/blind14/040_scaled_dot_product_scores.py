import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q K^T / sqrt(d_k), for any leading batch dimensions."""
    scores = torch.bmm(queries, keys.transpose(1, 2))  # batched matrix product
    return scores / math.sqrt(keys.shape[1])
