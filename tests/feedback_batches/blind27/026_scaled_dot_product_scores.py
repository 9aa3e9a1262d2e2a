import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    d_k = keys.size(-1)
    return torch.matmul(queries, keys.transpose(0, 1)) / d_k ** 0.5
