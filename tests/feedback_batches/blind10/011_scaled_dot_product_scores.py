import math
import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.
    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    d_k = keys.shape[-1]
    # the ellipsis carries any batch / head dimensions through untouched
    scores = torch.einsum("...qd,...kd->...qk", queries, keys)
    return scores / math.sqrt(d_k)
