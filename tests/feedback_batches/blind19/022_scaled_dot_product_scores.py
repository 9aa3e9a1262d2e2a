import torch


def scaled_dot_product_scores(queries, keys):
    """Q K^T / sqrt(d_k) for any leading batch (or head) dimensions."""
    d_k = keys.size(-1)
    return torch.einsum("...qd,...kd->...qk", queries, keys) * d_k ** -0.5
