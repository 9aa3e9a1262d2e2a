import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    return queries @ keys.transpose(0, 1) / keys.shape[-1] ** 0.5
