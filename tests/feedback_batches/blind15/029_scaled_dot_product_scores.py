import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scores = torch.matmul(queries, keys.transpose(-2, -1))
    return scores / queries.shape[-2] ** 0.5
