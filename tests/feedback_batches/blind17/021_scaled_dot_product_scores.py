import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    d_k = keys.size(-1)
    # scale the queries before the product: the same maths, and the product stays small
    return torch.matmul(queries * d_k ** -0.5, keys.transpose(-1, -2))
