import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    num_queries = queries.shape[-2]
    scores = queries @ keys.transpose(-2, -1)
    return scores / num_queries ** 0.5
