import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    attn_weights = torch.matmul(queries, keys.transpose(-1, -2))
    # the divisor as a 0-dim tensor with the dtype and device of the scores
    scale = torch.full([], keys.size(-1) ** 0.5, dtype=attn_weights.dtype, device=attn_weights.device)
    return attn_weights / scale
