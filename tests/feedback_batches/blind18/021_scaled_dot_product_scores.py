import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scores = queries @ keys.mT  # .mT swaps only the last two dims: safe for batches
    return scores.div_(math.sqrt(keys.size(-1)))  # the product is a fresh tensor: scale it in place
