import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    # scale the queries first (cheaper than scaling the T_q x T_k scores), as in GPT-2 code
    queries *= keys.shape[-1] ** -0.5
    return queries @ keys.transpose(-2, -1)
