import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    d_k = keys.shape[-1]
    # pair every query with every key: (..., T_q, 1, d_k) against (..., 1, T_k, d_k)
    dots = torch.linalg.vecdot(queries[..., :, None, :], keys[..., None, :, :])
    return dots / math.sqrt(d_k)
