import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    scores = torch.matmul(queries, keys.mT)
    return scores / keys.shape[-2] ** 0.5
