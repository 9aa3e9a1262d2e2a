import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    # .mT swaps the last two dims only; the product is a fresh tensor, so dividing it in place is safe
    return torch.matmul(queries, keys.mT).div_(math.sqrt(keys.shape[-1]))
