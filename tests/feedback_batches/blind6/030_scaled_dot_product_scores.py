import math
import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q K^T / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.size(-1)
    return torch.matmul(queries, keys.movedim(-1, -2)) * (1.0 / math.sqrt(d_k))
