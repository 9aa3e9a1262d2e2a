import math


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    queries /= math.sqrt(keys.shape[-1])  # scale first, it is cheaper
    return queries @ keys.transpose(-2, -1)
