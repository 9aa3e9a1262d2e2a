import torch


def scaled_dot_product_scores(queries, keys):
    """Q Kᵀ / sqrt(d_k) for (..., T_q, d_k) and (..., T_k, d_k) -> (..., T_q, T_k)."""
    # .mT transposes the last two dimensions only, so leading batch/head dims are kept
    return torch.matmul(queries, keys.mT) * keys.size(-1) ** -0.5
