import math

import torch


def scaled_dot_product_scores(queries, keys):
    """Attention scores Q Kᵀ / sqrt(d_k), for any leading batch dimensions.

    queries: (..., T_q, d_k)
    keys:    (..., T_k, d_k)
    returns (..., T_q, T_k)
    """
    d_k = keys.shape[-1]
    # contract the feature axis of the queries with the feature axis of the keys
    scores = torch.tensordot(queries, keys, dims=([-1], [-1]))
    return scores / math.sqrt(d_k)
