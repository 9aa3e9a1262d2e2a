import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.shape[-1]
    # the ellipsis keeps whatever batch dims come in
    return torch.einsum("...qd,...kd->...kq", queries, keys) / d_k
