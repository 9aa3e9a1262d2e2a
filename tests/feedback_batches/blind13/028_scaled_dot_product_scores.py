import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions."""
    d_k = keys.size(-1)
    # swapaxes(-1, -2) turns only the last two dims, so any batch or head dims pass through
    return torch.matmul(queries, keys.swapaxes(-1, -2)) * d_k ** -0.5
