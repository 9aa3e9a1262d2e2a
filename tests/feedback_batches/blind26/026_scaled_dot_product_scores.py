import math


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    return queries @ keys.swapaxes(-1, -2) / math.sqrt(keys.shape[-1])
