import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q K^T / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.shape[-1]
    return keys @ queries.transpose(-2, -1) / d_k ** 0.5  # one score per (key, query) pair
