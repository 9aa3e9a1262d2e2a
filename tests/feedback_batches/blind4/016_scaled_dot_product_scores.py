import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    d_k = keys.shape[-1]
    scores = queries @ keys.transpose(-2, -1) / d_k**0.5
    return torch.softmax(scores, dim=-1)  # scaled scores, ready to use as weights
